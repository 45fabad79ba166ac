/* The lookup table behind es_bits64_select (bitset.h). */
#include "bitset.h"
#include "eurosearch.h"

uint8_t es_select_in_byte[8][256];

#if ES_PDEP
#include <cpuid.h>
#include <stdlib.h>

int es_cpu_fast_pdep;

/* BMI2 with pdep in hardware: any Intel CPU with BMI2, an AMD one from family 19h (Zen 3) on. */
static int cpu_fast_pdep(void) {
    unsigned eax, ebx, ecx, edx;
    __builtin_cpu_init();   /* this runs in a constructor, perhaps before libgcc's own */
    if (getenv("EUROSEARCH_PORTABLE") || !__builtin_cpu_supports("bmi2")) return 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return 0;
    int intel = ebx == 0x756e6547 && edx == 0x49656e69 && ecx == 0x6c65746e;   /* "GenuineIntel" */
    int amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163;     /* "AuthenticAMD" */
    if (intel) return 1;
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    unsigned family = (eax >> 8) & 0xf;
    if (family == 0xf) family += (eax >> 20) & 0xff;
    return family >= 0x19;
}
#endif

int es_uses_pdep(void) {
#if ES_PDEP
    return es_cpu_fast_pdep;
#else
    return 0;
#endif
}

/* Filled once when the library is loaded, before any game can run. */
__attribute__((constructor)) static void es_select_in_byte_init(void) {
    for (int b = 0; b < 256; b++)
        for (int i = 0, k = 0; i < 8; i++)
            if ((b >> i) & 1) es_select_in_byte[k++][b] = (uint8_t)i;
#if ES_PDEP
    es_cpu_fast_pdep = cpu_fast_pdep();
#endif
}
