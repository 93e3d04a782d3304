"""staticroof.memo.Bounded: the per-process memo tables' bound (one rule, shared by every table)."""

from staticroof.memo import Bounded


def test_a_bounded_table_forgets_all_once_past_its_limit():
    # limit 3: entries 0..3 fit (a table is emptied only when it holds more than 3 and a new key
    # comes), so the 5th new key (4) finds 4 entries, empties the table, and is its only entry
    t = Bounded(3)
    for k in range(4):
        t[k] = k * k
    assert t == {0: 0, 1: 1, 2: 4, 3: 9}
    t[2] = 5  # a key it holds is replaced, nothing forgotten
    assert len(t) == 4 and t[2] == 5
    t[4] = 16
    assert t == {4: 16}
    found = t[5] = 25  # the chained form the memos use
    assert found == 25 and t == {4: 16, 5: 25}
