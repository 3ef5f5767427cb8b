"""``serve`` in Japanese, Korean and Russian over HTTP: how a page's language is chosen, the session's texts in it.

A real server in a subprocess; every request may say ``&lang=``, else
``serve --lang``, else ``Accept-Language``. Two pages reading different
languages at once each get the table, the refusals and the lines of the
last move in their own; the log is the same whatever the languages.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.lang import LANGUAGES, NATIVE_NAMES, translator
from coloretto_log.record.events import card_word
from coloretto_log.serve.page import MESSAGES

from ..builders.server import Server
from ..conftest import ROOT

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

THREE = ("--players", "Aiko,Boris,Chloe", "--games", "1", "--date", "2026-11-29")
SETUP = ["red", "blue", "orange", "green", "1"]  # removed, one starting card each, Aiko starts


def get(server: Server, route: str, lang: str | None = None, accept: str | None = None) -> tuple[int, Any]:
    query = f"?t={server.token}" + (f"&lang={lang}" if lang else "")
    headers = {"Accept-Language": accept} if accept else {}
    req = urllib.request.Request(server.base + route + query, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    text = raw.decode("utf-8")
    return status, (json.loads(text) if route.startswith("/api/") else text)


def post(server: Server, line: str, lang: str, version: int | None = None) -> tuple[int, Any]:
    state = get(server, "/api/state", lang)[1]
    body = json.dumps({"line": line, "version": state["version"] if version is None else version,
                       "epoch": state["epoch"]}).encode()  # fmt: skip
    req = urllib.request.Request(f"{server.base}/api/line?t={server.token}&lang={lang}", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def page_lang(page: str) -> str:
    found = re.search(r'<html lang="(\w+)">', page)
    assert found and f"const SERVER_LANG = {json.dumps(found.group(1))};" in page
    return found.group(1)


def test_the_browser_language_chooses_the_page_and_lang_or_serve_lang_overrides_it(tmp_path: Path) -> None:
    with Server(tmp_path / "a.json", *THREE) as server:
        assert page_lang(get(server, "/")[1]) == "en"
        assert page_lang(get(server, "/", accept="de;q=0.9, ko-KR;q=0.8, *;q=0.1")[1]) == "ko"
        assert page_lang(get(server, "/", accept="ru-RU,ru;q=0.9,en;q=0.5")[1]) == "ru"
        assert get(server, "/api/state", accept="ja")[1]["lang"] == "ja"
        assert get(server, "/api/state", "ko", accept="ja")[1]["lang"] == "ko"  # the page's switch wins
        assert get(server, "/api/state", "xx", accept="ru")[1]["lang"] == "ru"  # not a language of ours: ignored
        server.stop()
    with Server(tmp_path / "b.json", *THREE, "--lang", "JA") as server:
        assert page_lang(get(server, "/", accept="ko, ru")[1]) == "ja"
        assert get(server, "/api/state")[1]["lang"] == "ja"
        assert get(server, "/api/state", "en")[1]["lang"] == "en"
        server.stop()


def test_a_lang_that_is_not_ours_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", str(tmp_path / "c.json"), *THREE, "--lang", "de", "--port", "0"])
    assert result.exit_code == 2 and "--lang" in result.output and "ja" in result.output
    assert not (tmp_path / "c.json").exists()


def test_the_page_carries_every_language_and_writes_only_catalogue_words() -> None:
    """Every text the page writes is a message of serve.page, and every such message is used by the page."""
    page = (ROOT / "coloretto_log" / "serve" / "assets" / "page.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\bN?T\("((?:[^"\\]|\\.)*)"', page))
    listed = {m if isinstance(m, str) else m[0] for m in MESSAGES}
    assert used == listed
    from coloretto_log.serve.page import catalogue_json, page_html

    catalogue = json.loads(catalogue_json())
    assert set(catalogue) == set(LANGUAGES) and {c["name"] for c in catalogue.values()} == set(NATIVE_NAMES.values())
    ru = catalogue["ru"]["messages"]["{n} card left"]
    assert set(ru) == {"one", "few", "many", "other"} and ru["one"] != ru["few"] != ru["many"]
    assert "<" not in catalogue_json()  # nothing in it can end the page's script
    assert "/*CATALOGUE*/" not in page_html(page, "ru") and '<html lang="ru">' in page_html(page, "ru")


def test_two_pages_read_the_same_table_in_two_languages_and_the_log_is_one(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    with Server(path, *THREE) as server:
        for line in SETUP:
            status, answer = post(server, line, "ja")
            assert status == 200, answer
        en, ru = get(server, "/api/state", "en")[1], get(server, "/api/state", "ru")[1]
        assert en["version"] == ru["version"] and en["offer"] == ru["offer"] and en["players"] == ru["players"]
        assert en["prompt"] == "Aiko's move" and ru["prompt"] == translator("ru").t("{who}'s move", who="Aiko")
        labels = {c["name"]: c["label"] for c in ru["cards"]}
        assert labels["red"] == card_word("red", translator("ru")) == "красный"
        assert [c["name"] for c in ru["cards"]] == [c["name"] for c in en["cards"]]  # what a tap sends is the same

        # A move made on the Korean page: its answer in Korean, and every page sees the line in its own language.
        status, answer = post(server, "d brown 1", "ko")
        assert status == 200 and answer["state"]["lang"] == "ko"
        said = {lang: get(server, "/api/state", lang)[1]["shown"] for lang in LANGUAGES}
        assert said["en"] == ["Aiko drew brown into row 1"]
        assert answer["lines"] == said["ko"] and "갈색" in said["ko"][0] and "Aiko" in said["ko"][0]
        assert "коричневый" in said["ru"][0] and "茶" in said["ja"][0]

        # A refusal in the page's language, with its rule id and what it is about: which card, which row.
        ja = translator("ja")
        status, answer = post(server, "d red 1", "ja")
        assert status == 422 and answer["rule"] == "impossible-card"
        assert answer["error"] == "記録しません [impossible-card] 赤はこのゲームの準備で取り除かれています"
        assert answer["error"] == ja.t("refused [{rule}] {message}", rule="impossible-card", message=ja.t(
            "{card} was removed from this game at setup", card=card_word("red", ja)))  # fmt: skip
        status, answer = post(server, "t 4", "ko")
        assert status == 422 and answer["error"] == "기록하지 않아요 [unknown-row] 4번 열은 없어요. 열은 1부터 3까지예요"
        status, answer = post(server, "t 2", "ru")
        assert status == 422 and answer["error"] == "не записано [row-empty] ряд 2 пуст, его нельзя взять"
        status, answer = post(server, "d red 1", "en")  # English: the engine's own sentence, as validate says it
        assert status == 422 and answer["error"] == "refused [impossible-card] red was removed from this game at setup"
        # The edition and the scoring table, named in each page's language.
        assert get(server, "/api/state", "ru")[1]["rules_words"] == "классическое издание, схема для новичков"
        assert get(server, "/api/state", "ja")[1]["rules_words"] == "原版、通常の得点表"
        assert get(server, "/api/state", "en")[1]["rules_words"] == "classic edition, standard table"
        # A page that drew an old table is told so in its language.
        status, answer = post(server, "t 1", "ru", version=0)
        assert status == 409 and answer["error"] == translator("ru").gettext(
            "the table changed (another phone moved) since this page drew it: look again")
        server.stop()
    written = path.read_bytes()

    # The same lines in English only: the same bytes.
    (tmp_path / "english").mkdir()
    with Server(tmp_path / "english" / "k.json", *THREE) as server:
        for line in [*SETUP, "d brown 1"]:
            assert post(server, line, "en")[0] == 200
        server.stop()
    assert (tmp_path / "english" / "k.json").read_bytes() == written


def test_the_last_round_question_is_asked_in_each_page_language(tmp_path: Path) -> None:
    with Server(tmp_path / "q.json", *THREE) as server:
        for line in SETUP:
            assert post(server, line, "en")[0] == 200
        status, answer = post(server, "l", "ru")  # the last-round card before the first card: asked about
        assert status == 200 and answer["state"]["phase"] == "confirm", answer["error"]
        asked = {lang: get(server, "/api/state", lang)[1] for lang in LANGUAGES}
        assert asked["en"]["confirm"].startswith("the last-round card belongs at card")
        assert "«последнего раунда»" in asked["ru"]["confirm"] and answer["state"]["confirm"] == asked["ru"]["confirm"]
        assert "終了札" in asked["ja"]["confirm"] and "마지막 라운드" in asked["ko"]["confirm"]
        assert len({a["confirm"] for a in asked.values()}) == 4
        assert asked["ko"]["prompt"] == translator("ko").gettext("Record the last-round card here all the same?")
        assert post(server, "n", "ja")[0] == 200
        assert get(server, "/api/state", "en")[1]["phase"] == "move"
        server.stop()
