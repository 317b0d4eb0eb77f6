"""Discord's limits, in one place. Rendering clamps and paginates against these numbers."""

MESSAGE_CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000  # across all embeds of one message
EMBEDS_PER_MESSAGE = 10
CHOICES = 25  # autocomplete choices, select options, command options
CHOICE_NAME = 100
CHOICE_VALUE = 100
SELECT_OPTION_LABEL = 100
SELECT_OPTION_DESCRIPTION = 100
SELECT_PLACEHOLDER = 150
BUTTON_LABEL = 80
CUSTOM_ID = 100
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45
TEXT_INPUT_PLACEHOLDER = 100
TEXT_INPUT_VALUE = 4000  # what one modal text field holds (its max_length at most)

# Our own page size: room under the description limit for the fields and footer, and under
# the 6000 total for one answer embed.
PAGE_CHARS = 3500
# Discord expires an interaction not answered within 3 s: a lookup not done after this long
# is deferred ("thinking…") and its reply follows up.
DEFER_AFTER = 1.0
# Our own flood budget: RULINGS_COOLDOWN_PER_MINUTE lookups per user in this many seconds,
# for slash commands and messages alike.
COOLDOWN_WINDOW = 60.0
