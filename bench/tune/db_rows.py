"""db_rows.py DB [AFTER] - for study.sh's RESUME: with AFTER, the
configurations of the rows of the cache DB past row AFTER (those a dry
run added, one a line); without, the number of its last row."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
if len(sys.argv) > 2:
    for (config,) in db.execute("select config from results where seq > ? "
                                "order by seq", (int(sys.argv[2]),)):
        print(config)
else:
    print(db.execute("select coalesce(max(seq), 0) from results").fetchone()[0])
