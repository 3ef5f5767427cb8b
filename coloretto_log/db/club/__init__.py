"""Club nights and tournaments as the database keeps them: who met whom and who started, for tonight's tables
(``history``), and the Swiss tournaments beside the matches (``tournaments``)."""
