"""The club's static site (``coloretto-log site``): pages drawn from the database, for any web host or a zip.

``build`` (the folder, incremental, atomic writes, the manifest), ``pages``
(what every page shows, drawn from its Jinja2 template in ``templates/``),
``svg`` (the charts). It reads the database through ``db`` (``db.site.data``)
and draws replays with ``view.html``; jinja2 (and its markupsafe) is the one
third-party package it imports.
"""
