"""Words every front end shows: players' languages (i18n.py, its catalogs in locales/,
translators' tools in i18n_tools.py), what a render module returns for a board or a hand
(panel.py) and the text helpers the games' render modules share (render_util.py). No
Discord here."""
