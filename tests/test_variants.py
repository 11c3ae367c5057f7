"""Tests of the variant files: the shipped ones, and broken ones rejected clearly."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from solver import Limit, VariantError, solve
from solver.families.tomb.variant import CELL_TARGETS
from solver.variants import (
    JewelVariant,
    NapoleaoVariant,
    Variant,
    all_variants,
    load,
    load_file,
    names,
    parse,
    shipped,
)

ROOT = Path(__file__).resolve().parent.parent

# What docs/rules/napoleons-tomb.md says of each variant.
EXPECTED = {
    "napoleons-tomb": dict(
        family="tomb",
        turn=1,
        passes=1,
        cells=4,
        cell_sources=("waste",),
        cell_targets=("foundation",),
        sixes_reserve=False,
    ),
    "napoleons-tomb-3": dict(
        family="tomb",
        turn=3,
        passes=3,
        cells=4,
        cell_sources=("waste",),
        cell_targets=("foundation",),
        sixes_reserve=False,
    ),
    "napoleonin-hauta": dict(
        family="tomb",
        turn=1,
        passes=1,
        cells=4,
        cell_sources=("waste", "cell"),
        cell_targets=("foundation", "cell", "reserve", "waste"),
        sixes_reserve=True,
    ),
    "paciencia-napoleao": dict(
        family="napoleao",
        start_bases=True,
        restricted_rounds=2,
        restricted_again=False,
        redeals=2,
        deal_from="pile-1",
        deal_when="nothing-fits",
        passes=3,
        cards=104,
    ),
    "paciencia-napoleao-free": dict(
        family="napoleao",
        start_bases=True,
        restricted_rounds=2,
        restricted_again=False,
        redeals=2,
        deal_from="pile-1",
        deal_when="any-time",
        passes=3,
        cards=104,
    ),
    "paciencia-porta-joias": dict(
        family="jewel",
        reserves=3,
        runs_move=False,
        empty_pile="any",
        empty_lid="none",
        reserve_takes="unplaceable",
        cards=104,
    ),
    "paciencia-porta-joias-free": dict(
        family="jewel",
        reserves=3,
        runs_move=False,
        empty_pile="any",
        empty_lid="none",
        reserve_takes="any",
        cards=104,
    ),
}
CLASSES = {"tomb": Variant, "napoleao": NapoleaoVariant, "jewel": JewelVariant}

CLASSIC_TOML = """\
name = "my-variant"
family = "tomb"
description = "a test variant"

[stock]
turn = 1
passes = 1

[cells]
count = 4
accept_from = ["waste"]
send_to = ["foundation"]

[reserve]
sixes = false
"""


# ---------------------------------------------------------------------------
# The shipped variants


def test_exactly_the_expected_variants_are_shipped():
    assert names() == sorted(EXPECTED)
    assert sorted(v.name for v in all_variants()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shipped_variant_parameters_match_the_rules_page(name):
    v = load(name)
    assert type(v) is CLASSES[EXPECTED[name]["family"]]
    assert v.name == name
    for field, value in EXPECTED[name].items():
        got = getattr(v, field)
        if field in ("cell_sources", "cell_targets"):
            # Order in the file does not matter; the set of places does.
            assert sorted(got) == sorted(value), field
            assert len(set(got)) == len(got), field
        else:
            assert got == value, field
    assert v.description and "\n" not in v.description
    assert v.path is not None and v.path.name == f"{name}.toml"


def test_load_is_cached_and_passes_variants_through():
    v = load("napoleons-tomb")
    assert load("napoleons-tomb") is v
    assert load(v) is v


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_load_file_on_a_shipped_file_equals_load(name):
    v = load(name)
    assert load_file(v.path) == v


@pytest.mark.parametrize(
    "name", ["nope", "", "NAPOLEONS-TOMB", "napoleons-tomb.toml", "../variants/napoleons-tomb", "__init__", None, 5]
)
def test_unknown_variant_name_lists_the_variants(name):
    with pytest.raises(VariantError) as info:
        load(name)
    text = str(info.value)
    assert "unknown variant" in text
    assert repr(name) in text
    for known in EXPECTED:
        assert known in text


def test_unknown_variant_through_solve():
    with pytest.raises(VariantError, match=r"unknown variant 'klondike'.*napoleons-tomb-3"):
        solve(14, "klondike")


@pytest.mark.parametrize("name", [["napoleons-tomb"], {"name": "napoleons-tomb"}])
def test_an_unhashable_variant_name_is_a_variant_error(name):
    """Found by tests/test_properties.py: load(["napoleons-tomb"]) raised
    TypeError (unhashable type: 'list') from the cache look-up."""
    with pytest.raises(VariantError, match="unknown variant"):
        load(name)
    with pytest.raises(VariantError, match="unknown variant"):
        solve(1, name)


@pytest.mark.parametrize("name", ["", [], 0])
def test_an_empty_variant_name_is_not_the_classic(name):
    """Found by tests/test_properties.py: solve(1, "") solved the classic
    (``variant or DEFAULT_VARIANT``); only None means the default."""
    from solver import hint

    with pytest.raises(VariantError, match="unknown variant"):
        solve(1, name, Limit(positions=1000, seconds=None))
    with pytest.raises(VariantError, match="unknown variant"):
        hint(1, name, Limit(positions=1000, seconds=None))


def test_variant_error_is_a_value_error():
    assert issubclass(VariantError, ValueError)


# ---------------------------------------------------------------------------
# Broken files: each message names the file, the field and what is allowed


def write(tmp_path: Path, text: str | bytes, name: str = "broken.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def edit(old: str, new: str) -> str:
    assert old in CLASSIC_TOML, old
    return CLASSIC_TOML.replace(old, new, 1)


def error_for(tmp_path: Path, text: str | bytes) -> tuple[Path, str]:
    path = write(tmp_path, text)
    with pytest.raises(VariantError) as info:
        load_file(path)
    return path, str(info.value)


def test_the_template_itself_loads(tmp_path):
    v = load_file(write(tmp_path, CLASSIC_TOML))
    assert (v.name, v.turn, v.passes, v.cells) == ("my-variant", 1, 1, 4)
    assert v.path == tmp_path / "broken.toml"


def test_not_toml(tmp_path):
    path, text = error_for(tmp_path, "this is = = not toml [")
    assert str(path) in text
    assert "TOML" in text


def test_not_utf8(tmp_path):
    path, text = error_for(tmp_path, b"\xff\xfe\x00 garbage")
    assert str(path) in text
    assert "UTF-8" in text


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(VariantError, match="cannot read"):
        load_file(tmp_path / "absent.toml")
    with pytest.raises(VariantError, match="cannot read"):
        load_file(tmp_path)


def test_empty_file(tmp_path):
    path, text = error_for(tmp_path, "")
    assert str(path) in text and "missing" in text


@pytest.mark.parametrize(
    "old, new, field, allowed",
    [
        ("turn = 1\n", "", "stock.turn", "1..52"),
        ("passes = 1\n", "", "stock.passes", "1..7"),
        ("count = 4\n", "", "cells.count", "0..4"),
        ('name = "my-variant"\n', "", "name", "non-empty string"),
        ("[reserve]\nsixes = false\n", "", "reserve.sixes", "true or false"),
        ('send_to = ["foundation"]\n', "", "cells.send_to", "'foundation'"),
    ],
)
def test_missing_field(tmp_path, old, new, field, allowed):
    path, text = error_for(tmp_path, edit(old, new))
    assert str(path) in text
    assert repr(field) in text
    assert "missing" in text
    assert allowed in text


@pytest.mark.parametrize(
    "old, new, field, allowed",
    [
        ("turn = 1", 'turn = "one"', "stock.turn", "an integer 1..52"),
        ("turn = 1", "turn = true", "stock.turn", "an integer 1..52"),
        ("turn = 1", "turn = 1.0", "stock.turn", "an integer 1..52"),
        ("passes = 1", "passes = [1]", "stock.passes", "an integer 1..7"),
        ("count = 4", "count = false", "cells.count", "an integer 0..4"),
        ('accept_from = ["waste"]', 'accept_from = "waste"', "cells.accept_from", "'waste', 'cell'"),
        ("sixes = false", 'sixes = "no"', "reserve.sixes", "true or false"),
        ("sixes = false", "sixes = 0", "reserve.sixes", "true or false"),
        ('name = "my-variant"', "name = 7", "name", "non-empty string"),
    ],
)
def test_wrong_type(tmp_path, old, new, field, allowed):
    path, text = error_for(tmp_path, edit(old, new))
    assert str(path) in text
    assert repr(field) in text
    assert allowed in text


@pytest.mark.parametrize(
    "old, new, field, allowed",
    [
        ("turn = 1", "turn = 0", "stock.turn", "1..52"),
        ("turn = 1", "turn = 53", "stock.turn", "1..52"),
        ("turn = 1", "turn = -3", "stock.turn", "1..52"),
        ("passes = 1", "passes = 0", "stock.passes", "1..7"),
        ("passes = 1", "passes = 8", "stock.passes", "1..7"),
        ("count = 4", "count = 9", "cells.count", "0..4"),
        ("count = 4", "count = -1", "cells.count", "0..4"),
        ('family = "tomb"', 'family = "klondike"', "family", "'tomb'"),
        ('name = "my-variant"', 'name = ""', "name", "non-empty"),
        ('description = "a test variant"', 'description = ""', "description", "one-line"),
        ('description = "a test variant"', 'description = "two\\nlines"', "description", "one-line"),
        ('accept_from = ["waste"]', 'accept_from = ["stock"]', "cells.accept_from", "'waste', 'cell'"),
        ('send_to = ["foundation"]', 'send_to = ["tomb"]', "cells.send_to", "'foundation'"),
    ],
)
def test_out_of_range(tmp_path, old, new, field, allowed):
    path, text = error_for(tmp_path, edit(old, new))
    assert str(path) in text
    assert repr(field) in text
    assert allowed in text


@pytest.mark.parametrize(
    "old, new, field",
    [
        ('send_to = ["foundation"]', 'send_to = ["foundation", "foundation"]', "cells.send_to"),
        ('accept_from = ["waste"]', 'accept_from = ["waste", "cell", "waste"]', "cells.accept_from"),
    ],
)
def test_repeated_list_entry(tmp_path, old, new, field):
    path, text = error_for(tmp_path, edit(old, new))
    assert str(path) in text
    assert repr(field) in text
    assert "without repeats" in text


@pytest.mark.parametrize(
    "text, field",
    [
        ('colour = "red"\n' + CLASSIC_TOML, "colour"),
        (CLASSIC_TOML.replace("[cells]\n", "[cells]\nsize = 3\n"), "cells.size"),
        (CLASSIC_TOML + "\n[extra]\nx = 1\n", "extra"),
        (CLASSIC_TOML.replace("[stock]\n", "[stock]\nspeed = 2\n"), "stock.speed"),
    ],
)
def test_unknown_field(tmp_path, text, field):
    path, message = error_for(tmp_path, text)
    assert str(path) in message
    assert "unknown field" in message
    assert repr(field) in message
    # ... and says which fields there are.
    for known in ("stock.turn", "cells.count", "reserve.sixes"):
        assert known in message


def test_send_to_reserve_needs_a_sixes_reserve(tmp_path):
    path, text = error_for(tmp_path, edit('send_to = ["foundation"]', 'send_to = ["foundation", "reserve"]'))
    assert str(path) in text
    assert "'cells.send_to'" in text
    assert "reserve" in text and "'reserve.sixes'" in text


def test_send_to_reserve_with_a_sixes_reserve_loads(tmp_path):
    text = edit('send_to = ["foundation"]', 'send_to = ["foundation", "reserve"]')
    text = text.replace("sixes = false", "sixes = true")
    v = load_file(write(tmp_path, text))
    assert v.sixes_reserve and "reserve" in v.cell_targets


def test_cells_must_take_cards_from_the_waste(tmp_path):
    path, text = error_for(tmp_path, edit('accept_from = ["waste"]', 'accept_from = ["cell"]'))
    assert str(path) in text and "'cells.accept_from'" in text and "'waste'" in text


def test_every_cell_target_is_accepted(tmp_path):
    targets = "[" + ", ".join(f'"{t}"' for t in CELL_TARGETS) + "]"
    text = edit('accept_from = ["waste"]', 'accept_from = ["waste", "cell"]')
    text = text.replace('send_to = ["foundation"]', f"send_to = {targets}")
    text = text.replace("sixes = false", "sixes = true")
    v = load_file(write(tmp_path, text))
    assert v.cell_targets == CELL_TARGETS


def test_parse_names_the_given_place():
    with pytest.raises(VariantError, match=r"^<here>: field 'name' is missing"):
        parse({}, "<here>")


def test_a_custom_variant_file_can_be_solved(tmp_path):
    text = edit("turn = 1", "turn = 3").replace("passes = 1", "passes = 3")
    v = load_file(write(tmp_path, text))
    result = solve(5, v)
    assert result.variant == "my-variant"
    assert result.verdict == "won"


def test_result_position_of_a_custom_variant(tmp_path):
    text = edit("turn = 1", "turn = 3").replace("passes = 1", "passes = 3")
    v = load_file(write(tmp_path, text))
    result = solve(5, v)
    assert result.position().won


def test_every_cell_count_the_schema_allows_can_be_solved(tmp_path):
    for count in range(0, 5):
        v = load_file(write(tmp_path, edit("count = 4", f"count = {count}")))
        assert v.cells == count
        assert solve(14, v, Limit(positions=50_000)).verdict in ("won", "lost", "unknown")
    with pytest.raises(VariantError, match=r"cells.count.*0..4"):
        load_file(write(tmp_path, edit("count = 4", "count = 5")))


# ---------------------------------------------------------------------------
# python -m solver variants


def test_cli_lists_the_variants_with_descriptions():
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "variants"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == len(EXPECTED)
    for name in EXPECTED:
        [line] = [ln for ln in lines if ln.split()[0] == name]
        assert load(name).description in line


NAPOLEAO_TOML = """\
name = "my-napoleao"
family = "napoleao"
description = "a test variant"

[setup]
start_bases = true

[rounds]
restricted = 2
restricted_after_redeal = false
deal_when = "nothing-fits"

[redeal]
count = 2
deal_from = "pile-1"
"""

JEWEL_TOML = """\
name = "my-jewel"
family = "jewel"
description = "a test variant"

[reserves]
count = 3
takes = "unplaceable"

[piles]
runs_move = false
empty_takes = "any"

[lid]
empty_takes = "none"
"""


def test_a_two_deck_variant_file_loads_and_checks(tmp_path):
    path = tmp_path / "my-napoleao.toml"
    path.write_text(NAPOLEAO_TOML.replace("count = 2", "count = 1"), encoding="utf-8")
    v = load_file(path)
    assert (v.family, v.redeals, v.passes, v.decks) == ("napoleao", 1, 2, 2)
    for old, new, words in (
        ('deal_from = "pile-1"', 'deal_from = "pile-7"', "'redeal.deal_from'"),
        ("restricted = 2", "restricted = -1", "'rounds.restricted'"),
        ("start_bases = true", "start_bases = 1", "'setup.start_bases'"),
        ("[redeal]", "[redeal]\nshuffle = true", "unknown field 'redeal.shuffle'"),
        ('deal_when = "nothing-fits"', 'deal_when = "never"', "'rounds.deal_when'"),
        ('deal_when = "nothing-fits"\n', "", "'rounds.deal_when' is missing"),
    ):
        path.write_text(NAPOLEAO_TOML.replace(old, new), encoding="utf-8")
        with pytest.raises(VariantError, match=re.escape(words)):
            load_file(path)


def test_a_jewel_variant_file_says_which_cards_a_reserve_takes(tmp_path):
    path = tmp_path / "my-jewel.toml"
    path.write_text(JEWEL_TOML, encoding="utf-8")
    assert load_file(path).reserve_takes == "unplaceable"
    path.write_text(JEWEL_TOML.replace('"unplaceable"', '"any"'), encoding="utf-8")
    assert load_file(path).reserve_takes == "any"
    for old, new, words in (
        (
            'takes = "unplaceable"',
            'takes = "some"',
            "'reserves.takes' is 'some'; it must be one of 'unplaceable', 'any'",
        ),
        ('takes = "unplaceable"\n', "", "'reserves.takes' is missing"),
        ('takes = "unplaceable"', "takes = true", "'reserves.takes' is True (bool)"),
    ):
        path.write_text(JEWEL_TOML.replace(old, new), encoding="utf-8")
        with pytest.raises(VariantError, match=re.escape(words)):
            load_file(path)


# ---------------------------------------------------------------------------
# The rules fingerprint


def test_the_fingerprint_is_the_rules_without_name_or_description(tmp_path):
    classic = load("napoleons-tomb")
    renamed = CLASSIC_TOML.replace('description = "a test variant"', 'description = "worded otherwise"')
    mine = load_file(write(tmp_path, renamed))
    assert mine.name == "my-variant" and mine.fingerprint == classic.fingerprint
    assert "name" not in mine.rules() and "description" not in mine.rules() and "path" not in mine.rules()
    # the lists of places are sets to the rules: their order is not part of the fingerprint
    hauta = (ROOT / "solver/variants/napoleonin-hauta.toml").read_text(encoding="utf-8")
    swapped = hauta.replace('accept_from = ["waste", "cell"]', 'accept_from = ["cell", "waste"]')
    assert swapped != hauta
    assert load_file(write(tmp_path, swapped, "h.toml")).fingerprint == load("napoleonin-hauta").fingerprint


def test_changed_rules_under_a_shipped_name_change_the_fingerprint(tmp_path):
    text = (ROOT / "solver/variants/napoleons-tomb.toml").read_text(encoding="utf-8")
    same = load_file(write(tmp_path, text, "copy.toml"))
    changed = load_file(write(tmp_path, text.replace("passes = 1 ", "passes = 2 "), "changed.toml"))
    assert same.name == changed.name == "napoleons-tomb"
    assert same.fingerprint == load("napoleons-tomb").fingerprint and shipped(same)
    assert changed.fingerprint != same.fingerprint and not shipped(changed)
    assert solve(14, changed, Limit(positions=1)).fingerprint == changed.fingerprint


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_rule_field_changes_the_fingerprint(name):
    import dataclasses

    v = load(name)
    assert len({x.fingerprint for x in all_variants()}) == len(EXPECTED)
    for f in dataclasses.fields(v):
        if f.name in ("name", "title", "description", "path"):
            continue
        value = getattr(v, f.name)
        other = (
            not value
            if isinstance(value, bool)
            else value + 1
            if isinstance(value, int)
            else value + "-other"
            if isinstance(value, str)
            else value + ("other",)
        )
        assert dataclasses.replace(v, **{f.name: other}).fingerprint != v.fingerprint, f.name
    assert dataclasses.replace(v, name="x", description="y", title="z").fingerprint == v.fingerprint


def test_the_fingerprint_is_stable_across_runs():
    # 16 hex digits of BLAKE2b over the canonical JSON: a change here changes every stored fingerprint
    assert load("napoleons-tomb").rules_json() == (
        '{"cell_sources":["waste"],"cell_targets":["foundation"],"cells":4,"family":"tomb",'
        '"passes":1,"sixes_reserve":false,"turn":1}'
    )
    assert load("napoleons-tomb").fingerprint == "cc56379a4ee8d82b"
    code = "from solver.variants import all_variants; print(*[v.fingerprint for v in all_variants()])"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert runs == {" ".join(v.fingerprint for v in all_variants()) + "\n"}


def test_cli_variants_lists_the_fingerprints_and_checks_a_file(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "variants"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    for name in EXPECTED:
        [line] = [ln for ln in proc.stdout.splitlines() if ln.split()[0] == name]
        assert line.split()[1] == load(name).fingerprint
    path = write(tmp_path, CLASSIC_TOML, "mine.toml")
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "variants", "--variant-file", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[:2] == ["my-variant", load("napoleons-tomb").fingerprint]
    assert "the rules of napoleons-tomb" in proc.stdout
    broken = write(tmp_path, edit("turn = 1", "turn = 0"))
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "variants", "--variant-file", str(broken)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert proc.returncode == 2 and str(broken) in proc.stderr and "stock.turn" in proc.stderr
