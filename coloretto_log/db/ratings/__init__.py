"""Ratings: the model over the stored games (``model``: openskill's Weng–Lin, every player's skill and its
uncertainty), the ratings kept in the database and kept fresh (``stored``), and what ``ratings`` shows (``report``)."""
