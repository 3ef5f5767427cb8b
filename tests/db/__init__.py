"""Tests of coloretto_log.db."""
