"""Tests of coloretto_log.report."""
