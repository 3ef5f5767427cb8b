"""Tests of coloretto_log.record."""
