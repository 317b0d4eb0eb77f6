"""Lackey card markup and icon codes as words, for any front end.

Card texts from the LackeyCCG lists link cards as ``{Ready Room Door}`` and print icons as
codes (``[Fed]``, ``[Fajo]``); the documents lost some icons entirely, leaving an empty slot
("download one  card", "the universal () icon"). :func:`markup_to_words` turns all of that
into plain words a reader understands, without guessing a lost icon.
"""

from __future__ import annotations

import re

# Icon codes as the card lists and documents print them -> words. Codes not listed here are
# kept readable as "<code> icon" rather than guessed.
ICON_WORDS = {
    "fed": "Federation",
    "rom": "Romulan",
    "kli": "Klingon",
    "car": "Cardassian",
    "baj": "Bajoran",
    "bor": "Borg",
    "borg": "Borg",
    "maq": "Maquis",
    "fer": "Ferengi",
    "dom": "Dominion",
    "non": "Non-Aligned",
    "na": "Non-Aligned",
    "neu": "Neutral",
    "vul": "Vulcan",
    "hir": "Hirogen",
    "kaz": "Kazon",
    "sta": "Starfleet",
    "sf": "Starfleet",
    "univ": "universal",
    "au": "Alternate Universe",
    "mu": "Mirror Universe",
    "tng": "The Next Generation",
    "tos": "The Original Series",
    "ds9": "Deep Space Nine",
    "voy": "Voyager",
    "ent-e": "Enterprise-E",
    "holo": "hologram",
    "cmd": "command",
    "stf": "staff",
    "aq": "Alpha Quadrant",
    "gq": "Gamma Quadrant",
    "dq": "Delta Quadrant",
    "mq": "Mirror Quadrant",
    "22": "22nd Century",
    "fajo": "Fajo Collection",
    "flip": "flip",
    "equipment": "Equipment",
    "interrupt": "Interrupt",
    "event": "Event",
    "doorway": "Doorway",
    "objective": "Objective",
    "incident": "Incident",
    "personnel": "personnel",
}
# Not an id of ours in brackets ("[1e-darian-wallace]", a card's id, is no icon code).
_ICON = re.compile(r"\[(?![12][eE]-)([A-Za-z0-9][A-Za-z0-9 /&'+-]{0,30})\]")
# An icon code the text already calls an icon: "[S] and [P] icons" -> "S and P icons".
_ICON_NAMED = re.compile(_ICON.pattern + r"(?=(?:\s+(?:and|or)\s+\[[^\]]*\])*\s+icons?\b)")
_CARD_LINK = re.compile(r"\{([^{}\n]{1,80})\}")
# An icon slot the source left empty: "[ ]", "()", or a list of them with only its commas
# and "or" left ("(, , or )").
_EMPTY_SLOT = re.compile(r"\[\s*\]|\((?:(?:\s*,)+\s*(?:(?:or|and)\s*)?|\s*)\)")
# Two spaces between lower-case words: an icon the source lost ("download one  card").
_LOST_ICON = re.compile(r"(?<=[a-z,]) {2}(?=[a-z])")
# "non-" with its icon lost before a word ("a non- personnel or ship").
_LOST_AFTER_NON = re.compile(r"\b([Nn]on)- (?=[a-z])")


def icon_word(code: str) -> str:
    word = ICON_WORDS.get(code.strip().lower())
    return f"{word} icon" if word else f"{code.strip()} icon"


def _icon_slots(match: re.Match) -> str:
    """An empty slot -> "(icon)"; "(, , or )" -> "(icon, icon, or icon)": one icon for each
    slot the commas leave."""
    slots = [part.strip() for part in match.group(0)[1:-1].split(",")]
    return "(" + ", ".join(f"{slot} icon".strip() for slot in slots) + ")"


def markup_to_words(text: str) -> str:
    """``{Ready Room Door}`` -> Ready Room Door, ``[Fajo]`` -> Fajo Collection icon, an empty
    icon slot -> "(icon)". Markdown emphasis and list markers are left as they are."""
    text = _CARD_LINK.sub(lambda m: m.group(1), text or "")
    text = re.sub(r"\(\s*\)(?=\s+icon\b)\s+", "", text)  # "the universal () icon"
    text = _EMPTY_SLOT.sub(_icon_slots, text)
    text = _LOST_AFTER_NON.sub(r"\1-(icon) ", text)
    text = _LOST_ICON.sub(" (icon) ", text)
    text = _ICON_NAMED.sub(lambda m: icon_word(m.group(1)).removesuffix(" icon"), text)
    return _ICON.sub(lambda m: icon_word(m.group(1)), text)


def excerpt(text: str, limit: int) -> str:
    """The opening words of a text as one plain line of at most ``limit`` characters, cut
    after a whole word with "…": a pointer to where a ruling fits a question (beside a
    suggestion), never shown as the ruling itself."""
    flat = " ".join(markup_to_words(text).replace("*", "").split())
    flat = re.sub(r"^(?:[-•]|\d+[.)])\s+", "", flat)  # a list item's marker
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"
