"""The README's two commands are the ones CI and users run."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _shell_blocks(text: str) -> list[str]:
    blocks, inside, current = [], False, []
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append("\n".join(current))
            inside, current = not inside and line.strip() == "```sh", []
        elif inside:
            current.append(line)
    return blocks


def test_readme_starts_with_install_and_match_then_test_command() -> None:
    blocks = _shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks[0].startswith("pip install . && eurosearch match vienna --agents ")
    assert blocks[1] == "pip install '.[test,ray]' && python -m pytest"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    blocks = _shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == blocks[1]
