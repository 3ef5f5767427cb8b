"""Tests of coloretto_log.view."""
