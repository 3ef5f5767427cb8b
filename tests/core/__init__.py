"""Tests of coloretto_log.core."""
