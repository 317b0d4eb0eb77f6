"""The one-line excerpt shown beside a suggestion."""

from bot.markup import excerpt


def test_an_excerpt_is_one_line_cut_after_a_whole_word():
    text = '- Your cards aboard your *ship* when it becomes\n"unstopped" are also unstopped.'
    assert (
        excerpt(text, 200)
        == 'Your cards aboard your ship when it becomes "unstopped" are also unstopped.'
    )
    short = excerpt(text, 30)
    assert len(short) <= 30 and short.endswith("…")
    assert short == "Your cards aboard your ship…"
    assert excerpt("1. Draw [Fed] dilemmas", 100) == "Draw Federation icon dilemmas"
