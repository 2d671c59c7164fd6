"""rekey.py DB OLD NEW [PROBLEM ...] - for study.sh's RESUME after a
change of the spec (whose hash keys the cache): the records of template
OLD in DB moved to NEW, in both tables, so that a run of the changed spec
measures only what the old one did not.  Each PROBLEM (a problem key as
`lego tune` writes it, e.g. "BK=64 GM=8 K=1000 M=1000 N=1000") has its BK
moved into the configuration, after BN, as a run that tunes BK keys it
(study.sh FREE_BK=1); valid only where the changed spec still holds the
old configurations, which the dry run of RESUME then does not add."""
import sqlite3
import sys


def free_bk(problem, config):
    """(problem, config) with BK moved from the first to the second."""
    fixed = problem.split()
    bk = next(x for x in fixed if x.startswith("BK="))
    fixed.remove(bk)
    params = config.split()
    at = next(i for i, x in enumerate(params) if x.startswith("BN=")) + 1
    return " ".join(fixed), " ".join(params[:at] + [bk] + params[at:])


def main():
    db = sqlite3.connect(sys.argv[1])
    old, new, problems = sys.argv[2], sys.argv[3], sys.argv[4:]
    for table in ("results", "remeasured"):
        db.execute(f"update {table} set template = ? where template = ?",
                   (new, old))
        for problem in problems:
            rows = db.execute(f"select seq, config from {table} where "
                              "template = ? and problem = ?",
                              (new, problem)).fetchall()
            for seq, config in rows:
                p, c = free_bk(problem, config)
                db.execute(f"update {table} set problem = ?, config = ? "
                           "where seq = ?", (p, c, seq))
    db.commit()


main()
