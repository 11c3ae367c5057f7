"""The web game's server (solver.web) through its HTTP interface: the routes,
every bad request a clear JSON error, no response naming a hidden card,
hints off the event loop, and `python -m solver serve`."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from leaks import leaked

from solver.notation import parse_move, say, step_name, step_text
from solver.session import Game
from solver.variants import names
from solver.web import MAX_BODY, MAX_MOVES

ROOT = Path(__file__).resolve().parent.parent


def get_text(server, path):
    with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=30) as r:
        return r.status, r.headers["content-type"], r.read().decode()


def test_the_page_and_its_files_are_served(server):
    status, _, page = get_text(server, "/")
    assert status == 200 and '<script type="module" src="/static/app.js">' in page
    static = ROOT / "solver" / "web" / "static"
    modules = sorted(p.name for p in static.glob("*.js"))
    assert {"app.js", "api.js", "store.js", "table.js", "local.js"} <= set(modules)
    for name, kind in [(m, "javascript") for m in modules] + [("style.css", "css")]:
        status, kind_got, _ = get_text(server, f"/static/{name}")
        assert status == 200 and kind in kind_got
    # Nothing is fetched from elsewhere: no address but the page's own.
    for name in ["index.html", "style.css", *modules]:
        text = (static / name).read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_variants_come_from_the_library_the_3_card_deal_first(server):
    data = server.request("/api/variants")[1]
    listed = [v["name"] for v in data["variants"]]
    assert sorted(listed) == names() and listed[:2] == ["napoleons-tomb-3", "napoleons-tomb"]
    assert data["first"] == "napoleons-tomb-3"
    three = data["variants"][0]
    assert three["index"]["first"] == 1 and three["index"]["last"] >= 1_000_000 - 1


def test_play_state_and_steps(server):
    body = {"variant": "napoleons-tomb", "deal": 1, "steps": []}
    status, data = server.request("/api/state", body)
    assert data["view"]["legal"] == [{"action": "turn", "text": "Turn the stock"}] and data["view"]["last"] is None
    status, data = server.request("/api/play", {**body, "move": {"action": "turn", "text": "Turn the stock"}})
    assert status == 200 and data["step"] == [{"action": "turn"}] and data["text"] == "Turned the stock."
    assert data["view"]["table"]["waste"] == {"count": 1, "fan": ["JD"]}
    assert data["view"]["last"] == {"text": "Turned the stock.", "name": "turn the stock"}
    assert {"action": "move", "from": "waste", "to": "cell:2", "card": "JD", "text": "Play J♦ waste → cell 2"} in data[
        "view"
    ]["legal"]
    steps = [data["step"]]
    status, data = server.request(
        "/api/play", {**body, "steps": steps, "move": {"action": "move", "from": "waste", "to": "cell:2"}}
    )
    assert status == 200 and data["view"]["table"]["cells"] == [None, "JD", None, None]
    assert data["step"] == [{"action": "move", "from": "waste", "to": "cell:2", "card": "JD"}]  # no text: sent back
    assert data["text"] == "Played J♦ waste → cell 2." == data["view"]["last"]["text"]
    steps.append(data["step"])
    status, data = server.request("/api/state", {**body, "steps": steps})
    assert status == 200 and data["view"]["steps"] == 2 and data["view"]["last"]["name"] == "J♦ waste → cell 2"
    status, data = server.request("/api/state", {**body, "steps": steps[:1]})  # undo: one step fewer
    assert data["view"]["table"]["cells"] == [None] * 4 and data["view"]["table"]["waste"]["count"] == 1


def test_a_step_with_moves_made_by_themselves_says_them(server):
    """The classic's cell card goes home by itself; the jewel box fills a
    space with the next jewel."""
    game = Game("napoleons-tomb", 3)
    while len(game.steps[-1] if game.steps else ()) < 2:
        game.play(game.hint().move)
    body = {"variant": "napoleons-tomb", "deal": 3, "steps": game.steps_json()}
    view = server.request("/api/state", body)[1]["view"]
    assert "; then by itself: " in view["last"]["text"] and ", then " in view["last"]["name"]
    assert view["last"] == {"text": step_text(game.steps[-1]), "name": step_name(game.steps[-1])}
    jewel = Game("paciencia-porta-joias", 1)
    while not any(m.action == "jewel" for m in (jewel.steps[-1] if jewel.steps else ())):
        jewel.play(jewel.hint().move)
    body = {"variant": "paciencia-porta-joias", "deal": 1, "steps": jewel.steps_json()}
    text = server.request("/api/state", body)[1]["view"]["last"]["text"]
    assert text.startswith("Played ") and "; then by itself: the next jewel opened into " in text, text


def test_hint_says_what_it_proved(server):
    status, data = server.request("/api/hint", {"variant": "napoleons-tomb", "deal": 14, "steps": []})
    assert status == 200
    assert data["hint"] == {
        "move": {"action": "turn", "text": "Turn the stock"},
        "verdict": "won",
        "status": "won",
        "proof": "search",
        "score": 52,
        "reason": None,
        "text": "Turn the stock: this move keeps a win (proven: the solver's line wins from here).",
    }
    # Lost from the start: it "cannot be won"; after a move, it "can no longer be won".
    status, data = server.request("/api/hint", {"variant": "napoleons-tomb", "deal": 1, "steps": []})
    assert data["hint"]["verdict"] == "lost" and data["hint"]["score"] == 31
    assert "This deal cannot be won (proven); best possible: 31 cards home" in data["hint"]["text"]
    after_a_turn = {"variant": "napoleons-tomb", "deal": 1, "steps": [[{"action": "turn"}]]}
    status, data = server.request("/api/hint", after_a_turn)
    assert "This deal can no longer be won (proven); best possible: 31 cards home" in data["hint"]["text"]


def test_new_deals_and_verdicts(server):
    status, data = server.request("/api/new", {"variant": "napoleons-tomb-3", "winnable_only": True})
    assert status == 200 and data["source"] == "index" and 1 <= data["deal"] <= 1_000_000
    status, data = server.request("/api/verdict", {"variant": "napoleons-tomb-3", "deal": 5})
    assert data == {
        "variant": "napoleons-tomb-3",
        "deal": 5,
        "verdict": "won",
        "source": "index",
        "winnable": True,
        "difficulty": "blind",
        "difficulty_text": "a careful player who cannot see the stock wins it",
    }
    status, data = server.request("/api/verdict", {"variant": "paciencia-napoleao-free", "deal": 2})
    assert data["verdict"] == "won" and data["source"] == "search" and data["difficulty"] is None
    status, data = server.request("/api/verdict", {"variant": "paciencia-napoleao", "deal": 2})
    assert data["verdict"] == "won" and data["source"] == "index" and data["difficulty"] is None


BAD = [
    ("/api/state", {"variant": "no-such", "deal": 1}, 400, "unknown variant 'no-such'"),
    ("/api/state", {"variant": 3, "deal": 1}, 400, "'variant' must be a variant name"),
    ("/api/state", {"variant": "napoleons-tomb", "deal": 0}, 400, "deal number 0 is out of range"),
    ("/api/state", {"variant": "napoleons-tomb", "deal": 10**21}, 400, "out of range"),
    ("/api/state", {"variant": "napoleons-tomb", "deal": "9" * 5000}, 400, "of 5000 digits is out of range"),
    ("/api/state", {"variant": "napoleons-tomb", "deal": "abc"}, 400, "'deal' must be a deal number"),
    ("/api/state", {"variant": "napoleons-tomb", "deal": True}, 400, "'deal' must be a deal number"),
    ("/api/state", {"variant": "napoleons-tomb"}, 400, "'deal' must be a deal number"),
    ("/api/state", {"variant": "napoleons-tomb", "deal": 1, "steps": "x"}, 400, "'steps' must be a list"),
    (
        "/api/state",
        {"variant": "napoleons-tomb", "deal": 1, "steps": [[{"action": "fly"}]]},
        422,
        "step 1: unknown action 'fly'",
    ),
    ("/api/play", {"variant": "napoleons-tomb", "deal": 1}, 400, "give the 'move' to play"),
    (
        "/api/play",
        {"variant": "napoleons-tomb", "deal": 1, "move": {"action": "move", "from": "waste", "to": "tomb"}},
        422,
        "the waste is empty",
    ),
    (
        "/api/play",
        {"variant": "napoleons-tomb", "deal": 1, "move": {"action": "turn", "cards": ["AS"]}},
        422,
        "a turn names no card",
    ),
    (
        "/api/play",
        {"variant": "napoleons-tomb", "deal": 1, "auto": "yes", "move": {"action": "turn"}},
        400,
        "'auto' must be true or false",
    ),
    ("/api/new", {"variant": "napoleons-tomb", "winnable_only": 1}, 400, "'winnable_only' must be true or false"),
    ("/api/verdict", {"variant": "napoleons-tomb", "deal": -1}, 400, "out of range"),
]


@pytest.mark.parametrize("path,body,status,message", BAD)
def test_bad_requests_get_a_clear_error(server, path, body, status, message):
    got, data = server.request(path, body)
    assert got == status and set(data) == {"error"} and message in data["error"], data


def test_malformed_oversized_and_misrouted_requests(server):
    for raw, message in (
        (b"{not json", "not JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b"\xff\xfe", "not JSON"),
        (b"", "must be a JSON object"),
    ):
        status, data = server.request("/api/state", raw=raw, method="POST")
        assert status == 400 and message in data["error"]
    big = b'{"x": "' + b"a" * MAX_BODY + b'"}'
    status, data = server.request("/api/state", raw=big)
    assert status == 413 and "over 512 KiB" in data["error"]
    long_game = {"variant": "napoleons-tomb", "deal": 1, "steps": [[{"action": "turn"}]] * (MAX_MOVES + 1)}
    status, data = server.request("/api/state", long_game)
    assert status == 413 and "over 5,000 moves" in data["error"]
    assert server.request("/api/play") == (405, {"error": "GET is not allowed here"})
    assert server.request("/api/nothing") == (404, {"error": "no such page: /api/nothing"})


@pytest.mark.parametrize("name", names())
def test_no_response_names_a_hidden_card(server, name):
    """Random games of every variant through the server, hints and illegal
    moves included: no response names a card that is face down."""
    rng = random.Random(name)
    body = {"variant": name, "deal": 3, "steps": []}
    game = Game(name, 3)  # the test's own copy, to know what is hidden
    for i in range(40):
        view = server.request("/api/state", body)[1]["view"]
        assert not leaked(view, game.position)
        if i % 8 == 0:
            h = server.request("/api/hint", body)[1]
            assert not leaked(h, game.position), h
        if view["won"] or view["stuck"]:
            break
        # An illegal move's error.
        wrong = {"action": "move", "from": "stock", "to": "tomb"}
        status, err = server.request("/api/play", {**body, "move": wrong})
        assert status == 422 and not leaked(err, game.position), err
        move = rng.choice(view["legal"])
        before = game.position
        status, data = server.request("/api/play", {**body, "move": move})
        assert status == 200
        game.play(move)
        assert not leaked(data, before, game.position), data
        assert data["text"] == step_text(game.steps[-1])
        assert without_words(data["view"]) == game.view() | {"can_redo": False}
        body["steps"] = body["steps"] + [data["step"]]


def without_words(view: dict) -> dict:
    """A view as Game.view() gives it: the words the server adds checked
    (those of solver.notation) and taken out."""
    view = dict(view)
    for m in view["legal"]:
        assert m["text"] == say(parse_move(m))
    view["legal"] = [{k: v for k, v in m.items() if k != "text"} for m in view["legal"]]
    assert view.pop("last")["text"].endswith(".")
    return view


def test_a_slow_hint_does_not_hold_up_other_requests(server):
    """A hint that takes seconds (Finnish deal 35118 is lost, and deciding
    it takes longer than the hint's 2 s limit) runs in a thread: requests
    made while it runs are answered before it ends."""
    done = []
    slow = threading.Thread(
        target=lambda: done.append(
            server.request("/api/hint", {"variant": "napoleonin-hauta", "deal": 35118, "steps": []})
        )
    )
    slow.start()
    answered = 0
    while slow.is_alive() and answered < 5:
        status, _ = server.request("/api/state", {"variant": "napoleons-tomb", "deal": 2, "steps": []})
        assert status == 200
        answered += 1
        assert not done, "the hint ended before a request made while it ran"
    slow.join()
    assert answered == 5
    status, data = done[0]
    # The search stopped at its limit; the deal is lost all the same, as the
    # verdict index proves, and the hint says so rather than "could not tell".
    h = data["hint"]
    assert status == 200 and (h["verdict"], h["proof"], h["reason"]) == ("lost", "index", "seconds")
    assert "the verdict index holds its proof" in h["text"] and "could not tell" not in h["text"]


def test_the_serve_command_prints_its_address_and_serves():
    from conftest import Server

    own = Server()
    try:
        assert own.line.startswith("The web game is at http://127.0.0.1:") and "(Ctrl-C stops it)" in own.line
        url = own.url
        with urllib.request.urlopen(url + "api/variants", timeout=10) as r:
            assert json.load(r)["first"] == "napoleons-tomb-3"
        with urllib.request.urlopen(url, timeout=10) as r:
            assert b"app.js" in r.read()
        # A second server on the same port says why it cannot start.
        port = url.rstrip("/").rsplit(":", 1)[1]
        taken = subprocess.run(
            [sys.executable, "-m", "solver", "serve", "--port", port],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert taken.returncode == 2 and taken.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}")
    finally:
        own.stop()


def test_serve_without_the_web_extra_says_how_to_get_it():
    code = "import sys; sys.modules['uvicorn'] = None; from solver.cli import main; sys.exit(main(['serve']))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr == (
        "error: the web game needs the 'web' extra: pip install 'patience-solver[web]' (Starlette and uvicorn)\n"
    )


def test_a_variant_file_is_served_in_place_of_its_shipped_name(tmp_path):
    from solver import verdicts
    from solver.variants import load, load_file
    from solver.web import served_variants, variants_json

    path = tmp_path / "mine.toml"
    text = (ROOT / "solver" / "variants" / "napoleons-tomb-3.toml").read_text(encoding="utf-8")
    path.write_text(text.replace("passes = 3", "passes = 1", 1), encoding="utf-8")
    mine = load_file(path)
    listed = {v["name"]: v for v in variants_json(served_variants([mine]))}
    assert sorted(listed) == names()
    assert listed["napoleons-tomb-3"]["fingerprint"] == mine.fingerprint != load("napoleons-tomb-3").fingerprint
    assert listed["napoleons-tomb-3"]["index"] is None  # the index is of the shipped rules
    assert {v["name"]: v for v in variants_json()}["napoleons-tomb-3"]["index"] is not None
    assert verdicts.verdict(5, mine, search=False) == (None, "none")
    assert verdicts.verdict(5, load("napoleons-tomb-3"), search=False) == ("won", "index")


# ---------------------------------------------------------------------------
# Only its own page can use it; a search nobody waits for stops


def _raw(server, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    req = urllib.request.Request(
        server.url.rstrip("/") + path, data=body, headers=headers, method="POST" if body is not None else "GET"
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


STATE = json.dumps({"variant": "napoleons-tomb", "deal": 1, "steps": []}).encode()


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_post_whose_body_is_not_sent_as_json_is_refused(server, kind):
    """A plain HTML form of another site's page can post only these kinds."""
    status, body = _raw(server, "/api/state", STATE, {"Content-Type": kind} if kind else {})
    assert status == 415 and "Content-Type: application/json" in json.loads(body)["error"]
    assert _raw(server, "/api/state", STATE, {"Content-Type": "application/json; charset=utf-8"})[0] == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io", "localhost.evil.example"])
def test_a_request_for_another_host_name_is_refused(server, host):
    """A DNS-rebinding page reaches 127.0.0.1 under a name of its own: its
    requests carry that name in Host, and get nothing."""
    for path, body in (("/api/state", STATE), ("/api/variants", None), ("/", None)):
        status, text = _raw(server, path, body, {"Content-Type": "application/json", "Host": host})
        assert (status, text) == (400, b"Invalid host header")
    port = server.url.rstrip("/").rsplit(":", 1)[1]
    for ok in ("localhost", f"localhost:{port}", f"127.0.0.1:{port}"):
        assert _raw(server, "/api/state", STATE, {"Content-Type": "application/json", "Host": ok})[0] == 200


def test_allow_host_adds_a_name_and_a_bad_pattern_is_refused():
    from conftest import Server

    own = Server("--allow-host", "game.example")
    try:
        headers = {"Content-Type": "application/json", "Host": "game.example"}
        assert _raw(own, "/api/state", STATE, headers)[0] == 200
        assert _raw(own, "/api/state", STATE, {**headers, "Host": "other.example"})[0] == 400
    finally:
        own.stop()
    bad = subprocess.run(
        [sys.executable, "-m", "solver", "serve", "--allow-host", "a*b"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: --allow-host 'a*b'")


def test_a_hint_whose_client_went_away_is_stopped():
    """The page aborts a hint nobody waits for; the server sees the client
    go and cancels the search (solver.Cancel), counted in /api/status."""
    import socket
    import time

    from conftest import Server

    own = Server("--hint-seconds", "120")
    try:
        port = int(own.url.rstrip("/").rsplit(":", 1)[1])
        body = json.dumps({"variant": "napoleonin-hauta", "deal": 78606, "steps": []}).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(
                b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            for _ in range(100):
                time.sleep(0.05)
                if own.request("/api/status")[1]["searches"] == 1:
                    break
        counts = {}
        # The server looks every 0.1 s and counts the stop when it cancels;
        # the search's thread returns at its next check, which a sanitizer
        # build reaches later, and only then is nothing waiting.
        for _ in range(400):
            counts = own.request("/api/status")[1]
            if counts["stopped"] and not counts["waiting"]:
                break
            time.sleep(0.05)
        assert counts == {"searches": 1, "stopped": 1, "refused": 0, "waiting": 0}
        # The search's thread is free: the server does no more work for it.
        stat = Path(f"/proc/{own.proc.pid}/stat")
        if stat.exists():

            def cpu() -> float:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

            before = cpu()
            time.sleep(1.0)
            assert cpu() - before < 0.5, "the server still searches for a client that left"
    finally:
        own.stop()


# ---------------------------------------------------------------------------
# Hints within a wall-clock bound, a queue before a refusal, help that is not a search


def test_a_hint_stops_at_its_wall_clock_bound():
    """A CPU limit of 60 s, a wall-clock bound of 1 s: the hard hint answers
    when the wall clock says, with the reason a limit gives."""
    from conftest import Server

    own = Server("--hint-seconds", "60", "--hint-wall-seconds", "1")
    try:
        status, data = own.request("/api/hint", {"variant": "paciencia-porta-joias", "deal": 954, "steps": []})
        assert status == 200 and (data["hint"]["verdict"], data["hint"]["reason"]) == ("unknown", "seconds")
        assert data["hint"]["move"] is not None
    finally:
        own.stop()


def test_twenty_quick_hints_at_once_are_all_answered(server):
    """Hints wait for a worker (up to their wall-clock bound) rather than
    being refused at once."""
    answers: list = []

    def ask(deal: int) -> None:
        answers.append(server.request("/api/hint", {"variant": "napoleons-tomb-3", "deal": deal, "steps": []})[0])

    threads = [threading.Thread(target=ask, args=(200 + i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert answers == [200] * 20


def test_a_fair_hint_is_the_careful_players_move_and_says_so(server):
    from solver.blind import careful, view_of

    body = {"variant": "napoleons-tomb", "deal": 1, "steps": [[{"action": "turn"}]]}
    status, data = server.request("/api/hint", {**body, "fair": True})
    game = Game.replay("napoleons-tomb", 1, body["steps"])
    view = view_of(game.position)
    expected = careful.choose(view, view.moves)
    assert status == 200 and data["hint"]["fair"] is True and data["hint"]["verdict"] is None
    assert data["hint"]["move"]["action"] == expected.action
    assert data["hint"]["text"].startswith("Fair hint: ") and "it proves nothing" in data["hint"]["text"]
    move_text = data["hint"]["move"]["text"]
    assert data["hint"]["text"].startswith(f"Fair hint: {move_text[0].lower() + move_text[1:]}. ")
    status, data = server.request("/api/hint", {"variant": "paciencia-napoleao", "deal": 1, "steps": [], "fair": True})
    assert status == 400 and "blind player" in data["error"]


def test_finish_plays_the_cards_home_once_nothing_is_left_to_decide(server):
    """napoleons-tomb-3 deal 5, played along the solver's line until the
    view says it can be finished: /api/finish wins it; before that point it
    is refused."""
    game = Game("napoleons-tomb-3", 5)
    status, data = server.request("/api/finish", {"variant": "napoleons-tomb-3", "deal": 5, "steps": []})
    assert status == 400 and "still choices to make" in data["error"]
    while not game.view()["finishable"]:
        game.play(game.hint().move)
    body = {"variant": "napoleons-tomb-3", "deal": 5, "steps": game.steps_json()}
    status, data = server.request("/api/finish", body)
    assert status == 200 and data["view"]["won"] and data["steps"]
    assert len(data["texts"]) == len(data["steps"]) and data["texts"][-1] == data["view"]["last"]["text"]
    assert all(t.startswith(("Played ", "Turned the stock", "Redealt")) for t in data["texts"]), data["texts"]
    replayed = Game.replay("napoleons-tomb-3", 5, body["steps"] + data["steps"])
    assert replayed.won
    # Each step is a move home, or a turn when no card can go home.
    for step in data["steps"]:
        first = step[0]
        assert first["action"] != "move" or first["to"].split(":")[0] in ("corner", "tomb")


def test_the_games_have_titles_for_players(server):
    listed = server.request("/api/variants")[1]["variants"]
    titles = {v["name"]: v["title"] for v in listed}
    assert titles["paciencia-porta-joias-free"] == "Paciência do Porta-Jóias — any card to a reserve"
    assert all("-" not in t.split(" — ")[0] or t.startswith("Paciência do Porta-Jóias") for t in titles.values())
