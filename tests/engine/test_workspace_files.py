"""Finding and indexing a workspace's files: the listing walks folders as `os.walk` did (same files, same order,
the same links and special files left out) and names each file by its resolved uri; indexing reads a file's
tools from its light outline, with the same kind and registry entries as from tree-sitter's tree."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from checking import CORPUS, EXAMPLES
from clirun import run

from toolsense.engine.units import kind_from_path
from toolsense.engine.workspace import index_document, iter_json_files, json_files, load_file, path_to_uri
from toolsense.settings import Settings

TESTS = Path(__file__).resolve().parents[1]
FOLDERS = [TESTS / "golden", EXAMPLES, CORPUS]


def _tree(root: Path) -> None:
    (root / "a b" / "sub").mkdir(parents=True)
    (root / "a b" / "é x%.json").write_text("{}")
    (root / "a b" / "sub" / "q.tools.json").write_text("[]")
    (root / "z.json").write_text("[1]")
    (root / "B").mkdir()
    (root / "B" / "y.json").write_text("{}")
    (root / "notes.txt").write_text("x")
    (root / "node_modules" / "x").mkdir(parents=True)
    (root / "node_modules" / "x" / "ignored.json").write_text("{}")
    os.symlink(root / "z.json", root / "a b" / "link.json")  # inside: listed, under the target's uri
    os.symlink(root / "a b", root / "dirlink")  # a linked folder: not entered
    os.symlink(root / "missing", root / "broken.json")  # kept: reading it says why
    os.mkfifo(root / "fifo.json")  # never listed: reading it would block


def test_listing_order_links_and_uris(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    root = tmp_path / "ws"
    root.mkdir()
    _tree(root)
    os.symlink(outside, root / "out.json")  # a link out of the folder: never read
    found = list(json_files([root], Settings()))
    assert [(f.path.relative_to(root).as_posix(), f.size) for f in found] == [
        ("broken.json", -1),
        ("z.json", 3),
        ("B/y.json", 2),
        ("a b/link.json", 3),
        ("a b/é x%.json", 2),
        ("a b/sub/q.tools.json", 2),
    ]
    assert [f.uri for f in found] == [path_to_uri(f.path) for f in found]
    assert found[3].uri == (root / "z.json").as_uri()
    assert found[4].uri.endswith("/a%20b/%C3%A9%20x%25.json")
    assert list(iter_json_files([root], Settings())) == [f.path for f in found]


def test_listing_through_a_linked_root_names_files_by_their_real_path(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    _tree(real)
    os.symlink(real, tmp_path / "link")
    through = list(json_files([tmp_path / "link"], Settings()))
    direct = list(json_files([real], Settings()))
    assert [f.uri for f in through] == [f.uri for f in direct]
    assert [f.uri for f in through] == [path_to_uri(f.path) for f in through]
    single = real / "z.json"
    assert list(json_files([single], Settings())) == [(single, single.as_uri(), 3)]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_indexing_from_the_outline_reads_what_the_tree_reads(folder: Path) -> None:
    if not folder.is_dir():
        pytest.skip(f"{folder} is not here")
    settings = Settings()
    compared = 0
    for file in json_files([folder], settings):
        tree = load_file(file.path, None, file.uri)
        light = load_file(file.path, None, file.uri, outline=True)
        if tree.document is None or light.document is None:
            assert tree.problem == light.problem
            continue
        for hint in (kind_from_path(str(file.path), settings), None, "tool"):
            assert index_document(light.document, hint) == index_document(tree.document, hint), file.path
        compared += 1
    assert compared


def test_a_chain_of_1200_nested_folders_is_walked_without_recursion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The listing the CLI and the server's indexing share: deeper than Python's recursion limit, every file is
    # found, in the same order, and `check` reports the tool at the bottom instead of exiting 3.
    deep = tmp_path / "d"
    deep.mkdir()
    for _ in range(1200):  # one at a time: `mkdir(parents=True)` recurses once per level itself
        deep = deep / "a"
        deep.mkdir()
    (tmp_path / "top.json").write_text("{}")
    (deep / "x.tools.json").write_text('[{"name": "x", "description": "X.", "input_schema": {"type": "strin"}}]')
    (tmp_path / "d" / "b.json").write_text("{}")
    try:
        found = [f.path for f in json_files([tmp_path], Settings())]
        assert found == [tmp_path / "top.json", tmp_path / "d" / "b.json", deep / "x.tools.json"]
        code, out, _ = run(capsys, "--format", "json", str(tmp_path))
        assert code == 1
        assert [d["code"] for d in json.loads(out)] == ["TS211", "TS214"]  # the bottom tool: no object, "strin"
    finally:  # bottom up: pytest's clean-up of old temporary folders (`shutil.rmtree`) recurses once per level
        (deep / "x.tools.json").unlink()
        (tmp_path / "d" / "b.json").unlink()
        while deep != tmp_path:
            deep.rmdir()
            deep = deep.parent
