"""Club nights and tournaments: who sits at which table, who starts, and Swiss rounds (docs/tournament.md).

Pure, like ``core``: no I/O, no printing; names in, tables out. The history a
choice looks at (who met whom, who started, ratings, results) is read by
``db`` and handed in as plain values.

- ``split``: table sizes for a number of people, the search for the split
  that least repeats recent meetings (optionally grouped or mixed by
  rating), and each table's starting player.
- ``swiss``: a tournament's placing points, standings with their
  tie-breaks, the pairing of a round by standing, and the final table.
- ``names``: one person, one name: names too long, or two that look alike
  (the same once normalized, case folded and what shows nothing dropped),
  refused with a line saying why.
- ``advice``: how many rounds and whether to hold a final, for N players
  and the hours, from the benchmark's figures.
"""
