"""Previews waiting for Confirm: a form may look at one without spending it, and the
documents kept to correct a preview stay within a budget, the oldest let go first."""

from commands.admin import pending as pending_module
from commands.admin.pending import Pending


def test_a_look_leaves_the_item_and_a_take_spends_it():
    pending = Pending()
    token = pending.put(7, "import", {"content": b"page"})
    assert pending.peek(token, 8) is None  # another moderator's preview is not theirs
    assert pending.peek(token, 7) == ("import", {"content": b"page"})
    assert pending.take(token, 7) == ("import", {"content": b"page"})
    assert pending.peek(token, 7) is None and pending.take(token, 7) is None


def test_kept_documents_past_the_budget_let_the_oldest_go(monkeypatch):
    monkeypatch.setattr(pending_module, "KEPT_BYTES", 250)
    pending = Pending()
    first, second, third = (bytes([n]) * 100 for n in range(3))
    # an import's preview and its fix share one document: counted once, let go together
    tokens = [
        pending.put(1, "import", {"content": first}),
        pending.put(1, "fix", {"content": first}),
    ]
    tokens.append(pending.put(1, "import", {"content": second}))
    assert all(pending.peek(t, 1)[1]["content"] is not None for t in tokens)  # 200 bytes
    tokens.append(pending.put(1, "import", {"content": third}))  # 300: past the budget
    kept = [pending.peek(t, 1)[1]["content"] for t in tokens]
    assert kept == [None, None, second, third]
    assert pending.peek(tokens[0], 1)[0] == "import"  # the preview itself stays
