"""``record`` in Japanese, Korean and Russian: whole games at a pseudo-terminal, and the same log in every language.

The typed commands are the same letters in every language; what changes is
what the recorder says. The log written never depends on the language.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.replay import check_match

from ..builders.record import DATE, Script, match_script
from ..conftest import load_json

runner = CliRunner()
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
PLAYERS = ("Ann", "Ben")
HOSTILE = "Ai\u001b[31mko\u001b]0;pwned\u0007"

#: What each language must say at points of a game: (the move prompt of Ann, the screen's head,
#: the end of the game, the match's end).
SAID = {
    "ja": ("Annの手番", "ゲーム 1/1 · ラウンド 1", "ゲーム 1 終了。最高得点", "対戦終了。合計と順位："),
    "ko": ("Ann 님의 차례", "게임 1/1 · 라운드 1", "게임 1 종료. 최고 승점", "매치 종료. 합계와 순위:"),
    "ru": ("Ход: Ann", "Игра 1 из 1 · раунд 1", "Игра 1 окончена. Лучший счёт", "Матч завершён. Итоги и места:"),
}


@pytest.fixture(scope="module")
def script() -> Script:
    return match_script(31, PLAYERS, games=1, claims=True)


def piped(path: Path, lines: list[str], *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coloretto_log", "record", str(path), "--players", ",".join(PLAYERS), "--date", DATE,
         "--games", "1", *extra],
        input="".join(f"{line}\n" for line in lines), capture_output=True, text=True, check=False, timeout=120,
        env=env if env is not None else dict(os.environ, LC_ALL="C.UTF-8"),
    )  # fmt: skip


def test_the_log_is_byte_identical_in_every_language(tmp_path: Path, script: Script) -> None:
    files = {}
    outputs = {}
    for lang in ("en", "ja", "ko", "ru"):
        path = tmp_path / lang / "kitchen.json"
        path.parent.mkdir()
        proc = piped(path, script.lines, "--lang", lang)
        assert proc.returncode == 0, proc.stderr
        files[lang] = path.read_bytes()
        outputs[lang] = proc.stdout
    assert files["ja"] == files["en"] and files["ko"] == files["en"] and files["ru"] == files["en"]
    assert check_match(load_json(tmp_path / "en" / "kitchen.json")).complete
    assert "The match is complete. Totals and ranking:" in outputs["en"]
    for lang, said in SAID.items():
        assert said[3] in outputs[lang] and "The match is complete" not in outputs[lang]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [({"LANG": "ja_JP.UTF-8"}, "ja"), ({"LC_ALL": "ru_RU.UTF-8", "LANG": "ja_JP.UTF-8"}, "ru"),
     ({"LC_MESSAGES": "ko_KR.UTF-8"}, "ko"), ({"LANG": "fr_FR.UTF-8"}, "en")],
)  # fmt: skip
def test_without_lang_the_locale_chooses(tmp_path: Path, script: Script, environ: dict[str, str], expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    proc = piped(tmp_path / "kitchen.json", script.lines, env={**env, **environ})
    assert proc.returncode == 0, proc.stderr
    end = SAID[expected][3] if expected != "en" else "The match is complete. Totals and ranking:"
    assert end in proc.stdout


def test_lang_overrides_the_locale_and_a_bad_one_is_a_usage_error(tmp_path: Path, script: Script) -> None:
    env = dict(os.environ, LC_ALL="ja_JP.UTF-8")
    proc = piped(tmp_path / "kitchen.json", script.lines, "--lang", "en", env=env)
    assert "The match is complete. Totals and ranking:" in proc.stdout
    result = runner.invoke(app, ["record", str(tmp_path / "other.json"), "--lang", "fr"])
    assert result.exit_code == 2 and "--lang" in result.output and "en, ja, ko, ru" in result.output


def test_refusals_and_prompts_stay_one_line_and_name_the_rule(tmp_path: Path, script: Script) -> None:
    """A refused line in Russian: the line number, the rule id (English, a contract) and a Russian sentence."""
    lines = list(script.lines)
    first_move = script.move_lines[0][0]
    lines.insert(first_move, "t 1")  # every row is empty: row-empty
    lines.insert(first_move, "zz")  # not a command
    proc = piped(tmp_path / "kitchen.json", lines, "--lang", "ru")
    assert proc.returncode == 1  # a piped line was refused
    err = proc.stderr.splitlines()
    assert (f"строка {first_move + 1} (zz): не записано: «zz» — не команда: d КАРТА РЯД (вытянуть), t РЯД (взять), l, u, "
            "? или q") in err  # fmt: skip
    assert f"строка {first_move + 2} (t 1): не записано [row-empty] ряд 1 пуст, его нельзя взять" in err


def full_row_point(script: Script) -> tuple[int, int, int]:
    """Where in the first game a row left is full before a move: (the move's first line, the row, its cards)."""
    report = check_match(script.expected)
    states = list(report.games[0].states())
    for k, state in enumerate(states[:-1]):
        for i, (cards, taken, limit) in enumerate(zip(state.rows, state.taken, state.limits)):
            if not taken and len(cards) == limit:
                return script.move_lines[k][0], i + 1, len(cards)
    raise AssertionError("no full row in the game")


#: What each language says when a line is refused at the table: the rule id, then which row and how full.
REFUSED = {
    "ja": ("記録しません [row-empty] 1列目は空なので取れません", "記録しません [unknown-row] 9列目はありません。列は 1 から 3です",
           "記録しません [row-full] {row}列目は満杯です：すでに{n}枚あります"),
    "ko": ("기록하지 않아요 [row-empty] 1번 열은 비어 있어서 가져올 수 없어요",
           "기록하지 않아요 [unknown-row] 9번 열은 없어요. 열은 1부터 3까지예요",
           "기록하지 않아요 [row-full] {row}번 열은 가득 찼어요: 이미 카드가 {n}장 있어요"),
    "ru": ("не записано [row-empty] ряд 1 пуст, его нельзя взять", "не записано [unknown-row] ряда 9 нет: ряды — с 1 по 3",
           "не записано [row-full] ряд {row} заполнен: в нём уже {n} {cards}"),
}  # fmt: skip


def _pty(pexpect: Any, *args: str) -> tuple[Any, io.StringIO]:
    env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8")
    child = pexpect.spawn(sys.executable, ["-m", "coloretto_log", "record", *args], encoding="utf-8",
                          dimensions=(40, 120), env=env, timeout=120)  # fmt: skip
    out = io.StringIO()
    child.logfile_read = out
    return child, out


@pytest.mark.parametrize("lang", ["ja", "ko", "ru"])
def test_a_whole_game_at_the_keyboard(tmp_path: Path, script: Script, lang: str) -> None:
    """Typed at a pseudo-terminal in ``lang``: prompts, the table, help and the end are in it; the log is English's."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "kitchen.json"
    child, out = _pty(pexpect, str(path), "--players", ",".join(PLAYERS), "--date", DATE, "--games", "1", "--lang", lang)
    first_move = script.move_lines[0][0]
    full_at, full_row, held = full_row_point(script)
    refused = {first_move: ["?", "t 1", "d r 9"], full_at: [f"d r {full_row}"]}  # lines refused before a move's line
    for i, line in enumerate(script.lines):
        child.expect_exact("> ")
        for extra in refused.get(i, []):
            child.sendline(extra)
            child.expect_exact("> ")
        child.sendline(line)
    child.expect_exact(SAID[lang][3])
    child.expect_exact(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = ANSI.sub("", out.getvalue())
    prompt, head, over, _ = SAID[lang]
    assert prompt in text and head in text and over in text
    assert {"ja": "手番で使うコマンド：", "ko": "차례에 쓰는 명령:", "ru": "Команды на ходу:"}[lang] in text
    # the typed commands are the same letters; what they stand for is in the table's language, in the prompt too
    assert {"ja": "d カード 列", "ko": "d 카드 열", "ru": "d КАРТА РЯД"}[lang] in text
    assert "CARD" not in text and "ROW" not in text
    empty, unknown, full = REFUSED[lang]
    cards = {1: "карта", 2: "карты", 3: "карты"}.get(held, "карт")  # Russian: 1 карта, 2-4 карты, 5 карт
    assert empty in text and unknown in text and full.format(row=full_row, n=held, cards=cards) in text
    assert "refused" not in text and "is empty" not in text
    edition = {"ja": "原版、通常の得点表", "ko": "기본판, 갈색 승점표", "ru": "классическое издание, схема для новичков"}[lang]
    assert edition in text and "classic edition" not in text  # the screen's head and the help's cards
    assert "'s move" not in text and "Game 1 of 1" not in text  # nothing left in English
    assert "×" in text and not re.search(r"\b(orange|blue|brown|yellow|grey|green|red|purple) ×", text)  # collections
    english = tmp_path / "en" / "kitchen.json"
    english.parent.mkdir()
    assert piped(english, script.lines, "--lang", "en").returncode == 0
    assert path.read_bytes() == english.read_bytes()


def test_names_are_escaped_on_the_translated_screens(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "kitchen.json"
    child, out = _pty(pexpect, str(path), "--players", f"{HOSTILE},Ben", "--games", "1", "--lang", "ko")
    for answer in ["r g", "bl o", "y br", "1", "d bl 1", "d y 2"]:
        child.expect_exact("> ")
        child.sendline(answer)
    child.expect_exact("님의 차례")
    child.expect_exact("> ")
    child.sendline("q")
    child.expect_exact(pexpect.EOF)
    raw = out.getvalue()
    assert "\x07" not in raw and "\x1b]0;" not in raw and "\x1b[31mko" not in raw
    shown = ANSI.sub("", raw)
    assert "Ai\\x1b[31mko\\x1b]0;pwned\\x07" in shown and "멈췄어요" in shown
