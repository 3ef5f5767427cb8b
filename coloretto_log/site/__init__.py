"""The club's static site (``coloretto-log site``): pages drawn from the database, for any web host or a zip.

``build`` (the folder, incremental, atomic writes, the manifest), ``pages``
(the HTML of every page), ``svg`` (the charts). It reads the database through
``db`` (``db.site_data``) and draws replays with ``view.html``; it imports no
third-party package.
"""
