"""/ruling-admin: moderators of the home server change the rulings every server sees.

Registered only in the home server and hidden from members without Manage Messages
(``default_permissions``); every invocation (slash command, button, modal) is checked again
at run time against the member's current roles, because hiding is not enforcing. Changes
are previewed as users will see them and happen only on Confirm.

``checks`` says who is a moderator, ``pending`` keeps previews until Confirm, ``changes``
carries a confirmed change out and announces it, ``views`` holds the buttons, select and
modal, and ``group`` the command group and the extension's ``setup``. This file imports
none of them, so importing one never drags in the rest.
"""
