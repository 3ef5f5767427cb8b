"""``coloretto-log samples DIR``: the shipped samples written out for a user without a clone; never over a file."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from coloretto_log.cli import app

from ..conftest import SAMPLES

runner = CliRunner()


def test_samples_writes_the_shipped_files_and_validate_reads_them(tmp_path: Path) -> None:
    out = tmp_path / "new" / "samples"
    result = runner.invoke(app, ["samples", str(out)])
    assert result.exit_code == 0, result.output
    expected = sorted(p.name for p in SAMPLES.iterdir() if p.is_file())
    assert sorted(p.name for p in out.iterdir()) == expected
    assert all((out / name).read_bytes() == (SAMPLES / name).read_bytes() for name in expected)
    assert result.stdout == f"{len(expected)} sample files written to {out} (its README.md lists them); " \
        f"try: coloretto-log validate {out}\n"
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0, checked.output


def test_samples_never_replaces_a_file_and_writes_nothing_then(tmp_path: Path) -> None:
    (tmp_path / "classic-2p-recorded-game.json").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["samples", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {tmp_path / 'classic-2p-recorded-game.json'}: already exists; "
                             "samples never replace a file: give another folder\n")
    assert [p.name for p in tmp_path.iterdir()] == ["classic-2p-recorded-game.json"]
    assert (tmp_path / "classic-2p-recorded-game.json").read_text(encoding="utf-8") == "mine"


def test_samples_into_a_file_or_an_unwritable_folder_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("", encoding="utf-8")
    result = runner.invoke(app, ["samples", str(tmp_path / "f")])
    assert result.exit_code == 2 and result.stderr == f"Error: {tmp_path / 'f'}: is a file, not a folder; give a folder\n"
    result = runner.invoke(app, ["samples", str(tmp_path / "f" / "in")])  # the folder cannot be made
    assert result.exit_code == 3
    assert result.stderr.startswith(f"Error: {tmp_path / 'f' / 'in'}: ") and result.stderr.count("\n") == 1
