"""Tests of coloretto_log.coach."""
