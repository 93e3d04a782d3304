"""The content-hash cache in `.staticroof_cache/`, like ruff's and mypy's: re-running on files that
did not change costs a hash, not an analysis.

- `keys`: what a key covers (the file, every header it includes, the options, the configuration
  and staticroof itself);
- `store`: the folder (CACHEDIR.TAG, a `.gitignore` of `*`), atomic writes, distrustful reads;
- `codec`: results as JSON data and back (never pickle: reading a cache must not run code);
- `runner`: the pipeline file by file through the cache.

`lint` and `diff` use it by default (`--no-cache` turns it off); `analyze` only with
`--use-cache`, so that a plain `analyze` writes nothing outside its temporary folder.  The folder
is created by the first entry written, never by a command that only reads.  Other commands store
their own results with `Cache.put(kind, file_key(...), payload)` under a kind of their own.
"""

from .keys import canonical, file_key, fingerprint
from .store import CACHE_DIR, Cache, cache_root, usable

__all__ = ["CACHE_DIR", "Cache", "cache_root", "canonical", "file_key", "fingerprint", "usable"]
