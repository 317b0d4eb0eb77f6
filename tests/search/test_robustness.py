"""Any user string returns normally: FTS5 syntax, quotes, emoji, RTL, control characters, 10 kB."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NASTY = [
    "",
    " ",
    '"',
    "'",
    '"matching commander',
    "matching AND commander",
    "matching OR",
    "NEAR(matching commander)",
    "NOT stopped",
    "*",
    "mission*",
    "title:stopped",
    "text:^start",
    "(((",
    ")",
    "[[KTC]]",
    "{Ptol}",
    "\\",
    "%_",
    "'; DROP TABLE entries; --",
    "🖖 live long",
    "🖖",
    "שלום עולם",
    "مرحبا",
    "\u202eevil\u202c",
    "\x00\x01\x02",
    "tab\there",
    "line\nbreak",
    "x" * 10_000,
    "matching commander " * 600,
    "Ωmega",
    "ＫＴＣ",
]


@pytest.mark.parametrize("query", NASTY, ids=range(len(NASTY)))
def test_search_and_suggest_never_raise(rulings, query):
    result = rulings.index.search(query)
    assert isinstance(result.confident, bool)
    assert len(result.hits) <= 50
    suggestions = rulings.index.suggest(query)
    assert len(suggestions) <= 25
    assert all(len(label) <= 100 and len(value) <= 100 for value, label in suggestions)


@pytest.mark.parametrize("query", NASTY, ids=range(len(NASTY)))
def test_service_show_never_raises(rulings, query):
    answer, suggestions = rulings.show(query)
    assert answer is not None or "results" in suggestions


def test_fullwidth_initialism_still_finds_ktc(rulings):
    result = rulings.index.search("ＫＴＣ")
    assert result.hits and result.hits[0].target.topic == "2e-klingon-tea-ceremony"


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=400))
def test_arbitrary_text_never_raises(rulings, text):
    result = rulings.index.search(text)
    assert isinstance(result.confident, bool)
    assert len(rulings.index.suggest(text)) <= 25


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.sampled_from(list("\"*():^-+ ANDORNEAR{}[]\\'")), max_size=60))
def test_fts_syntax_soup_never_raises(rulings, text):
    assert isinstance(rulings.index.search(text).confident, bool)
