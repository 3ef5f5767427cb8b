"""Tests of coloretto_log.bots."""
