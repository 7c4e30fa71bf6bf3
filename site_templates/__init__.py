"""The explorer's default templates, installed as ``privacy_explorer.site_templates``.

Only data lives here (Jinja templates, strings.yml, static assets and fonts); this
file makes the folder a package so that ``importlib.resources`` finds it in a wheel
and in an editable install alike. A project's own ``site_templates/`` takes precedence.
"""
