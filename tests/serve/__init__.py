"""Tests of coloretto_log.serve."""
