"""Tests of coloretto_log.play."""
