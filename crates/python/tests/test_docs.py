"""The examples of docs/python.md run as written (from the repository's root)."""

import os
import re

import pytest

from conftest import REPO

DOC = REPO / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_its_four_examples():
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_an_example_runs(index, capsys):
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        exec(compile(BLOCKS[index], f"docs/python.md example {index + 1}", "exec"), {})
    finally:
        os.chdir(cwd)
    assert capsys.readouterr().out.strip()
