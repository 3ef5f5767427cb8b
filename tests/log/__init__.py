"""Tests of coloretto_log.log."""
