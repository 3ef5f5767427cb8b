"""Code the tests share: logs built by hand, scripted matches, a browser client, a server runner.

Test modules import from here (and from conftest.py), never from each other.
"""
