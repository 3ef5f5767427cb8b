"""What the club's site shows, read in bulk (``data``), and the analyses ``analyze --db`` stores for it
(``analyses``)."""
