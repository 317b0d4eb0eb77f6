"""CLI conventions: help everywhere, --version, JSON on misses, closed pipes, widths,
plain text when piped, and the terminal rendering of the rule as in force."""

import argparse
import ast
import io
import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.main import build_parser, main
from bot.cli.render import Out

ANSI = "\x1b["


class _Shared:
    """The session's service over the bundled data, lent to each in-process CLI call (opening
    one per call would rebuild its indexes every time); the CLI's close leaves it open."""

    def __init__(self, service):
        self._service = service

    def __getattr__(self, name):
        return getattr(self._service, name)

    def close(self):
        pass


@pytest.fixture
def run(rulings, capsys, monkeypatch):
    from bot.answers.service import Rulings

    monkeypatch.setattr(Rulings, "open", classmethod(lambda cls, db, data: _Shared(rulings)))
    monkeypatch.delenv("NO_COLOR", raising=False)

    def invoke(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return invoke


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_subcommand_and_option_has_help():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helped = {choice.dest for choice in action._choices_actions if choice.help}
    subcommands = _subcommands()
    assert {"show", "search", "card", "history", "related", "changes", "sources"} <= set(
        subcommands
    )
    assert set(subcommands) == helped
    missing = [
        f"{name} {a.option_strings or a.dest}"
        for name, sub in subcommands.items()
        for a in sub._actions
        if not isinstance(a, argparse._HelpAction) and not a.help
    ]
    assert missing == []


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_help_for_each_subcommand(name, capsys):
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: rulings {name}")


def test_top_level_help_names_exit_codes_and_the_edition_default(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "exit codes:" in out and "0    an answer" in out and "2    usage or data errors" in out
    assert "130  interrupted (Ctrl-C)" in out
    assert "Without --edition" in out and "card" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("rulings ") and out.split()[1][0].isdigit()


@pytest.mark.parametrize("command", ["show", "search", "related", "history", "card"])
def test_json_on_a_miss(run, command):
    code, out, err = run(command, "qwzxv", "--json")
    assert code == 1
    found = json.loads(out)
    assert found["query"] == "qwzxv" and found["confident"] is False
    assert err == ""


def test_edition_hint_on_a_miss(run):
    code, out, err = run("show", "KTC", "--edition", "1E")
    assert code == 1
    flat = " ".join(err.split())  # wrapped to whatever width the terminal has
    assert "is a 2E ruling" in flat and "--edition 2E" in flat
    code, out, _ = run("show", "KTC", "--edition", "1E", "--json")
    assert "is a 2E ruling" in json.loads(out)["hint"]
    code, out, _ = run("show", "KTC", "--edition", "2E", "--json")
    assert code == 0 and "hint" not in json.loads(out)
    # The edition typed in the query is asked for as much; the other edition's ruling is
    # suggested first.
    code, out, _ = run("show", "Going to the Top 2E", "--json")
    found = json.loads(out)
    assert code == 1 and "is a 1E ruling" in found["hint"]
    assert found["results"][0]["title"] == "Going to the Top"
    assert found["results"][0]["edition"] == "1E"


def test_as_of_before_any_dated_document_says_nothing_in_force(run):
    code, out, err = run("show", "species", "--edition", "2E", "--as-of", "2005-01-01")
    assert code == 1
    assert "Nothing in force then" in err and "2011-10-05" in err
    assert "species" not in out
    # the undated official Glossary still counts from the start
    code, out, _ = run("show", "mission", "--edition", "1E", "--as-of", "2005-01-01", "--json")
    assert code == 0 and json.loads(out)["id"].startswith("1e-glossary-m:")


def test_changes_since_includes_documents_of_that_date(run):
    code, out, _ = run("changes", "--since", "2014-07-07", "--edition", "2E", "--json")
    assert code == 0
    dates = {c["date"] for c in json.loads(out)["changes"]}
    assert dates == {"2014-07-07"}
    code, out, _ = run("changes", "--since", "2014-07-08", "--edition", "2E", "--json")
    assert json.loads(out)["changes"] == []


def test_a_closed_pipe_ends_quietly(store_copy):
    script = Path(sys.executable).with_name("rulings")
    env = {**os.environ, "RULINGS_DB": str(store_copy)}
    process = subprocess.Popen(
        [str(script), "history", "mission", "--edition", "1E"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    process.stdout.close()  # the reader is gone before the first line is written
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0
    assert b"Broken pipe" not in err and b"Traceback" not in err


@pytest.mark.parametrize("width", [50, 120])
@pytest.mark.parametrize(
    ("argv"),
    [
        ("show", "mission", "--edition", "1E"),
        ("show", "Klingon Tea Ceremony"),
        ("search", "matching commander"),
        ("history", "skills", "--edition", "2E"),
        ("card", "Kivas Fajo"),
        ("sources",),
        ("changes", "--since", "2014-01-01"),
    ],
)
def test_every_line_fits_the_width(run, monkeypatch, width, argv):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run(*argv)
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    if width == 120 and argv[0] != "sources":  # the width is used, not a fixed narrow one
        assert max(len(line) for line in lines) > 60


def test_piped_output_is_plain_rendered_text(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run("show", "mission", "--edition", "1E")
    assert code == 0
    assert ANSI not in out
    assert "**" not in out and "or version" in out  # **or version** rendered, not raw
    assert "[S]" not in out and "S and P icons" in out  # icon codes as words
    # Editing instructions are history: shown by `history`, never with the rule (issue 35).
    assert "Replace the fourth and fifth paragraphs" not in out
    code, history, _ = run("history", "mission", "--edition", "1E")
    assert "Replace the fourth and fifth paragraphs" in history
    code, out, _ = run("show", "Klingon Tea Ceremony")
    card = out[out.index("The card:") :]
    assert "{" not in card and "The card: Klingon Tea Ceremony" in card


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = Out(_Terminal(), width=60)
    out.markdown("Some **bold** text")
    out.flush()
    assert ANSI in out.file.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    out = Out(_Terminal(), width=60)
    out.markdown("Some **bold** text")
    out.flush()
    assert out.file.getvalue().strip() == "Some bold text"


def test_composed_rule_marks_the_changed_paragraphs(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run("show", "skills", "--edition", "2E")
    assert code == 0
    assert "The rule as in force" in out
    # Each part under its own document: the amendment's paragraphs under the CRD, the
    # Rulebook's under the Rulebook (issue 35).
    lines = out.splitlines()
    changed = next(n for n, line in enumerate(lines) if "Whenever “all skills”" in line)
    cited = [line for line in lines[:changed] if line.startswith("— ")]
    assert cited[-1].startswith("— Second Edition Current Rulings Document (7 July 2014)")
    kept = next(n for n, line in enumerate(lines) if 'A personnel "uses" one' in line)
    cited = [line for line in lines[:kept] if line.startswith("— ")]
    assert cited[-1].startswith("— 2E Rulebook text, via openCards")
    assert "The rest of the entry does not change" not in out


def test_win_the_game_prints_the_amendment_once(run):
    code, out, _ = run("show", "how do I win the game")
    assert code == 0
    assert out.count("A player wins the game when he or she") == 1
    assert 'changes part of the 2E Rulebook entry "winning the game"' in " ".join(out.split())
    assert "older copy" in out


def test_card_with_rulings(run):
    code, out, _ = run("card", "Klingon Tea Ceremony", "--json")
    assert code == 0
    card = json.loads(out)
    assert card["name"] == "Klingon Tea Ceremony" and card["edition"] == "2E"
    assert card["text"]
    ruling = card["rulings"][0]
    assert ruling["id"].startswith("2e-crd-2011-10-05:")
    assert ruling["source"].startswith("Second Edition Current Rulings Document")
    assert ruling["text"].startswith("If a single action downloads multiple cards")
    code, out, _ = run("card", "Klingon Tea Ceremony")
    assert "Ruling: Klingon Tea Ceremony" in out and "If a single action downloads" in out


def test_card_without_rulings_shows_its_text(run):
    code, out, _ = run("card", "Kivas Fajo", "--edition", "1E")
    assert code == 0
    assert "Kivas Fajo has no rulings in the bundled documents." in out
    assert "Each unduplicated artifact present is worth 5 points." in " ".join(out.split())
    assert "Rulings that mention it:" in out and "matching commander" in out
    code, out, _ = run("card", "Kivas Fajo", "--edition", "1E", "--json")
    card = json.loads(out)
    assert card["rulings"] == []
    assert [m["title"] for m in card["mentioned_in"]] == ["matching commander"]


def test_a_card_that_answers_show_cites_the_rulings_that_mention_it(run):
    # `show` answering with a card said "facility commander — , undated" for a ruling of the
    # 2014 CRD: only `card` looked up where the listed rulings come from.
    code, out, _ = run("show", "Captain's Log", "--edition", "1E")
    flat = " ".join(out.split())
    assert code == 0 and "Ruling: facility commander" in flat
    assert "undated" not in out
    assert "Ruling: facility commander — First Edition Current Rulings Document" in flat
    code, out, _ = run("show", "Captain's Log", "--edition", "1E", "--json")
    mention = json.loads(out)["card"]["mentioned_in"][0]
    assert mention["title"] == "facility commander" and mention["date"] == "2014-11-03"


def test_card_with_a_cut_ruling_says_so(run):
    code, out, _ = run("card", "Major Rakal", "--edition", "1E")
    assert code == 0
    assert "cut short" in out and "This personnel retains her" in out


def test_species_2e_shows_the_rulebook_text_it_adds_to(run):
    code, out, _ = run("show", "species", "--edition", "2E")
    assert code == 0
    flat = " ".join(out.split())
    assert "The text it adds to, still in force — 2E Rulebook text, via openCards" in flat
    assert "Two personnel are the same species if their species is an exact match." in flat
    assert "superseded" not in out


def test_a_ruling_lookup_naming_a_card_without_rulings_answers_with_the_card(run):
    # A card is an answer too (issue 10): its text, and that no ruling in the bundled
    # documents is about it or mentions it.
    code, out, err = run("show", "Telepathic Alien Kidnappers", "--edition", "1E")
    assert code == 0, err
    flat = " ".join(out.split())
    assert flat.startswith("Telepathic Alien Kidnappers (1E")
    assert "No rulings in the bundled documents mention this card." in flat
    code, out, _ = run("show", "Telepathic Alien Kidnappers", "--edition", "1E", "--json")
    answer = json.loads(out)
    assert answer["kind"] == "card" and answer["card"]["name"] == "Telepathic Alien Kidnappers"
    assert answer["rulings_note"] == "No rulings in the bundled documents mention this card."


# ------------------------------------------------------------------ issue 34: conventions
SCRIPT = Path(sys.executable).with_name("rulings")


def _example_argv(example: str) -> list[str]:
    """An example's own arguments: what follows `rulings`, up to a pipe or a redirection."""
    words = shlex.split(example)
    start = words.index("rulings") + 1
    end = next((i for i, w in enumerate(words) if i >= start and w in ("|", "&&", "<", ">")), None)
    return words[start:end]


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_every_subcommand_has_a_description_and_examples_that_parse(name):
    sub = _subcommands()[name]
    assert sub.description and len(sub.description.split()) >= 4
    assert sub.epilog and sub.epilog.startswith("examples:\n")
    examples = [
        line.strip() for line in sub.epilog.split("\n\n")[0].splitlines()[1:] if line.strip()
    ]
    assert examples
    for example in examples:
        argv = _example_argv(example)
        assert argv[0] == name, example
        build_parser().parse_args(argv)  # an example that does not parse exits 2 here
    shown = sub.format_help()
    assert sub.description.split()[0] in shown and examples[0] in shown


def test_the_own_text_of_a_table_is_never_read_as_ruling_markup(run, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run("sources")
    assert code == 0 and "(icon)" not in out
    _, listed, _ = run("sources", "--json")
    for document in json.loads(listed)["documents"]:
        assert f"{document['entries']:>3} entries  {document['title']}" in out
    code, out, _ = run("changes", "--since", "2014-01-01")
    assert code == 0 and "(icon)" not in out
    assert "changed  matching commander (1E)" in out
    # ruling text still is: "[S] and [P] icons" reads as words
    code, out, _ = run("show", "mission", "--edition", "1E")
    assert "S and P icons" in out and "[S]" not in out


def test_a_search_that_finds_nothing_says_so(run):
    code, out, err = run("search", "xyzzy")
    assert code == 1 and out == ""
    assert "Nothing found for 'xyzzy'" in err and "closest" not in err
    code, out, err = run("search", "matching comander")  # a near miss still lists the closest
    assert "Nothing found" not in err


def test_piped_output_keeps_each_record_on_one_line(run, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run("search", "matching commander", "--limit", "20")
    _, listed, _ = run("search", "matching commander", "--limit", "20", "--json")
    results = json.loads(listed)["results"]
    lines = out.splitlines()
    assert len(lines) == len(results) > 3
    assert all(line.endswith(f"[{r['id']}]") for line, r in zip(lines, results, strict=True))
    code, out, _ = run("show", "mission", "--edition", "1E")
    assert max(len(line) for line in out.splitlines()) > 200  # a paragraph, one line


def test_no_escape_codes_for_a_dumb_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "dumb")
    out = Out(_Terminal(), width=60)
    out.markdown("Some **bold** text")
    out.line("a heading", style="bold")
    out.flush()
    assert ANSI not in out.file.getvalue()
    assert out.file.getvalue().split() == ["Some", "bold", "text", "a", "heading"]


def test_a_closed_stdout_is_quiet(store_copy):
    env = {**os.environ, "RULINGS_DB": str(store_copy)}
    for argv in (["show", "KTC"], ["doctor"]):
        done = subprocess.run(
            ["sh", "-c", 'exec "$0" "$@" >&-', str(SCRIPT), *argv],
            capture_output=True,
            env=env,
            timeout=120,
        )
        assert done.stderr == b"", (argv, done.stderr)
        assert done.returncode in (0, 1)  # doctor fails a check without a token: exit 1
    assert b"Traceback" not in done.stderr


def _signal_masks(pid: int) -> str:
    """The child's ignored, blocked and caught signals as Linux reports them ("" elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return ""
    return " ".join(
        line for line in status.splitlines() if line.startswith(("SigIgn", "SigBlk", "SigCgt"))
    )


def test_ctrl_c_exits_130_quietly(store_copy):
    env = {**os.environ, "RULINGS_DB": str(store_copy)}
    env.pop("COLUMNS", None)
    process = subprocess.Popen(
        [str(SCRIPT), "eval", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        first = process.stderr.readline()  # the progress line: the long part has begun
        assert first.startswith(b"eval: deal 1 of"), first
        masks = _signal_masks(process.pid)  # named if the child does not stop
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, (masks, err[-600:], len(out))
    assert out == b"" and b"Traceback" not in err


def test_eval_progress_goes_to_stderr_and_json_stays_one_document(run, tmp_path):
    table = tmp_path / "table.yaml"
    table.write_text(
        "cases:\n"
        "  - {query: KTC, expect: [2e-klingon-tea-ceremony], edition: null, category: abbreviation}\n"
        "  - {query: what time is it, expect: null, edition: null, category: negative}\n",
        encoding="utf-8",
    )
    code, out, err = run("eval", "--no-fit", "--table", str(table), "--json")
    assert code == 0
    assert json.loads(out)["overall"]["cases"] == 2
    lines = err.splitlines()
    assert lines[0] == "eval: the shipped parameters, no refit"
    assert lines[-1].startswith("eval: done, 2 lookups")


def test_eval_progress_on_a_terminal_is_one_line_redrawn():
    from bot.cli.eval import Progress

    progress = Progress(_Terminal())
    progress.begin("deal 1 of 3 into 5 folds")
    for _ in range(Progress.EVERY * 2):
        progress.tick()
    progress.done()
    shown = progress.stream.getvalue()
    assert shown.count("\n") == 1 and shown.endswith("\n") and ANSI not in shown
    assert f"\reval: deal 1 of 3 into 5 folds: {Progress.EVERY * 2} lookups" in shown
    assert shown.split("\r")[-1].startswith("eval: done, 50 lookups")


def _reports(main_args: list[str], capsys) -> tuple[int, dict]:
    code = main(main_args)
    out = capsys.readouterr().out
    return code, json.loads(out)  # one JSON document, nothing else on stdout


def test_operations_report_as_json_and_restore_keeps_what_it_replaces(
    store_copy, data_dir, tmp_path, capsys, monkeypatch
):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    base = ["--data", str(data_dir), "--db", str(store_copy)]
    code, doctor = _reports([*base, "doctor", "--json"], capsys)
    assert code == (1 if not doctor["ok"] else 0)
    assert {"settings", "token", "data", "store"} <= {c["name"] for c in doctor["checks"]}
    assert all(set(c) == {"name", "status", "detail", "fix"} for c in doctor["checks"])
    folder = tmp_path / "backup"
    code, saved = _reports([*base, "backup", str(folder), "--json"], capsys)
    assert code == 0 and "rulings.sqlite3" in saved["files"] and saved["path"] == str(folder)
    live = store_copy.read_bytes()
    # without a terminal to ask on, and without --yes: refused, nothing touched
    assert main([*base, "restore", str(folder)]) == 2
    assert "--yes" in capsys.readouterr().err and store_copy.read_bytes() == live
    # asked on a terminal: "n" keeps everything as it was
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    assert main([*base, "restore", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "[y/N]" in err and "nothing restored" in err and store_copy.read_bytes() == live
    # "y": restored, and the store it replaced is kept where the report says
    monkeypatch.setattr(sys, "stdin", _Terminal("y\n"))
    code, restored = _reports([*base, "restore", str(folder), "--json"], capsys)
    kept = Path(restored["kept"])
    assert code == 0 and kept.parent == store_copy.parent and kept.name.startswith("replaced-")
    assert (kept / store_copy.name).read_bytes() == live
    code, again = _reports([*base, "restore", str(folder), "--yes", "--json"], capsys)
    assert code == 0 and Path(again["kept"]) != kept and Path(again["kept"]).exists()


def test_an_impossible_date_names_its_file_and_line(data_copy, tmp_path, capsys):
    registry = data_copy / "documents.yaml"
    lines = registry.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("date: 20"))
    lines[at] = lines[at][: lines[at].index("date:")] + "date: 2014-02-30"
    registry.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["--data", str(data_copy), "--db", str(tmp_path / "db.sqlite3"), "sources"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"rulings: error: {registry}:{at + 1}: date 2014-02-30 is not a real date\n"


def test_an_impossible_date_in_an_ingested_header_names_its_file_and_line(
    store_copy, tmp_path, capsys
):
    crd = Path(__file__).resolve().parents[1] / "rulings_data" / "sources"
    text = (crd / "1e-current-rulings-2014-11-03.md").read_text(encoding="utf-8")
    assert "(03 November 2014)" in text
    line = text[: text.index("(03 November 2014)")].count("\n") + 1
    document = tmp_path / "x.md"
    document.write_text(text.replace("(03 November 2014)", "(30 February 2014)"), "utf-8")
    code = main(["--db", str(store_copy), "ingest", str(document)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"x.md:{line}: date 30 February 2014 is not a real date" in err
    assert "out of range" not in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["show", "x"], "show"),
        (["--db", "show", "search", "x"], "search"),  # the value of --db is no command
        (["--data=folder", "-v", "card", "x"], "card"),
        (["--version"], None),
        (["-h", "show"], None),  # help before a command is the top level's
        ([], None),
        (["doctor"], "doctor"),
    ],
)
def test_the_command_is_found_past_the_global_options(argv, named):
    from bot.cli.main import command_named

    assert command_named(argv) == named


def test_a_lookup_imports_no_other_command_and_no_rendering_for_json(rulings):
    """A cold lookup pays for itself only: not for the other commands' modules, nor the
    moderators' side of the service, nor rich when it prints JSON, nor sqlite-utils' table
    API (building and changes only) or the packages' metadata (``--version`` only)."""
    rulings.keep_snapshot()  # the session's store, its answers kept: the lookup reads them
    probe = (
        "import sys; from bot.cli.main import main; "
        "code = main(['show', 'matching commander', '--edition', '1E', '--json']); "
        "print(sorted(m for m in sys.modules if m.startswith(('bot.', 'commands', 'rich', "
        "'sqlite_utils', 'importlib.metadata'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "RULINGS_DB": str(rulings.store.path)},
        check=True,
    )
    loaded = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert "bot.answers.service" in loaded  # it did look the query up
    for module in ("bot.cli.ops", "bot.cli.ingest", "bot.cli.eval", "bot.cli.moderation",
                   "bot.cli.health", "bot.cli.render", "bot.answers.imports",
                   "bot.answers.moderation", "commands.run", "rich", "sqlite_utils",
                   "importlib.metadata"):  # fmt: skip
        assert module not in loaded
