"""The lane's bookkeeping, without a Zephyr tree: build folders belong to one tree."""

import sys

from zephyr_env import BUILD_ROOT, ZephyrEnv


def fake_tree(path, major, minor):
    path.mkdir(parents=True)
    (path / "VERSION").write_text(f"VERSION_MAJOR = {major}\nVERSION_MINOR = {minor}\n"
                                  "PATCHLEVEL = 0\nVERSION_TWEAK = 0\nEXTRAVERSION =\n")
    return path


def test_each_zephyr_tree_gets_its_own_build_folders(tmp_path):
    old = ZephyrEnv(fake_tree(tmp_path / "ws35" / "zephyr", 3, 5))
    new = ZephyrEnv(fake_tree(tmp_path / "ws40" / "zephyr", 4, 0))
    same_version = ZephyrEnv(fake_tree(tmp_path / "other40" / "zephyr", 4, 0))
    roots = {old.build_root, new.build_root, same_version.build_root}
    assert len(roots) == 3 and all(r.parent == BUILD_ROOT for r in roots)
    assert old.build_root.name.startswith("3.5.0-") and new.build_root.name.startswith("4.0.0-")
    assert ZephyrEnv(tmp_path / "ws40" / "zephyr").build_root == new.build_root
    # Zephyr builds with the lane's Python.
    assert f"-DPython3_EXECUTABLE={sys.executable}" in new.extra
