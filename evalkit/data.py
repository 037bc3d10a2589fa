"""External public data sets: a registry, checksummed downloads, and a local mirror.

The real data is never committed. ``evalkit data fetch`` (or ``make data``)
installs each set under ``data/external/<folder>/<file>``; with ``--mirror DIR``
(or the environment variable ``EVALKIT_DATA_MIRROR``) files are copied from a
local directory laid out the same way instead of
downloaded.  Every file is written to a temporary name, its SHA-256 checked,
and only then renamed into place: an interrupted or corrupt transfer never
leaves a file under the real name.  Fetching is idempotent: a file already in
place with the right checksum is left alone.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tqdm.auto import tqdm

from . import paths
from .errors import InputError

__all__ = ["DataSet", "REGISTRY", "EXTERNAL_DIR", "MIRROR_ENV", "fetch", "path_of", "available",
           "FetchError"]

EXTERNAL_DIR = paths.EXTERNAL
MIRROR_ENV = "EVALKIT_DATA_MIRROR"


class FetchError(InputError):
    """A data set could not be installed; the message says why and what to do."""


@dataclass(frozen=True)
class DataSet:
    name: str
    path: str          # relative path under data/external/ (and in a mirror)
    url: str | None    # official download location (None: mirror only)
    size: int          # bytes of the installed (uncompressed) file
    sha256: str
    licence: str
    description: str
    gzip: bool = False  # the download is gzip-compressed; the checksum is of the content


REGISTRY: dict[str, DataSet] = {d.name: d for d in (
    DataSet("trec2014-qrels", "trec2014-microblog/qrels.microblog2014.txt",
            "https://trec.nist.gov/data/microblog/2014/qrels2014.txt", 1623580,
            "63cd849cd2d2bdafe2e5f21f7cf57f23b86b3ef91417ba0d07af4f5a0f7e0982",
            "NIST TREC data, free for research use",
            "TREC 2014 Microblog qrels: 55 topics, 57,985 judgments (grades 0/1/2)"),
    DataSet("trec2014-topics", "trec2014-microblog/topics.microblog2014.txt",
            "https://trec.nist.gov/data/microblog/2014/topics.MB171-225.txt", 10559,
            "e543e0606fcc98e25c1f779301f95e1a7aa390a4957a017f12c4cae83fe3cbaf",
            "NIST TREC data, free for research use",
            "TREC 2014 Microblog topics MB171-MB225 (query, query time)"),
    DataSet("trec2014-ttg-scores", "trec2014-microblog/ttg-official-run-scores.csv", None, 2070,
            "aa0ed4f74114c3c3a0424c43cc614930fbbed3a6245d05689af190738f87f2fd",
            "published results (facts)",
            "Official TREC 2014 TTG scores of 50 runs, transcribed from the track's results "
            "pages (usnistgov/trec-browser); no downloadable original, mirror only "
            "(also in data/published/)"),
    DataSet("ttg-training-clusters", "trec2011-2012-microblog/ttg-training-clusters.json",
            "https://raw.githubusercontent.com/ylwang99/TweetTimelineGeneration/master/"
            "data/semantic-clusters-ids/json/clusters-ids.json", 182780,
            "fe001527268a4de5105ef0f775e9c288e254cc7135e86228da31edfaa3110bb1",
            "research data released with the TTG papers",
            "Human semantic clusters for 25 TREC 2011-2012 topics"),
    DataSet("stc-ja-test", "ntcir12-stc-ja/test-final-labeled.txt",
            "https://raw.githubusercontent.com/mynlp/stc/298dbdb6063ca76bd344ea11d9758e6280b45612/"
            "stc1/testset/test-final-labeled.txt.gz", 1075494,
            "bba0af97da5e841ab2474c55977b524c2ed76f1baa8f428cd3f3861d391bfc88", "Apache-2.0",
            "NTCIR-12 STC Japanese test set: 18,543 post-reply pairs, 10 ratings each (0/1/2)",
            gzip=True),
    DataSet("stc-ja-dev", "ntcir12-stc-ja/dev.txt",
            "https://raw.githubusercontent.com/mynlp/stc/298dbdb6063ca76bd344ea11d9758e6280b45612/"
            "stc1/devset/dev.txt", 114732,
            "58af12f3d1429f08dc3e71975bf4c1f29d58f32300ede0273c5f4372d8ede020", "Apache-2.0",
            "NTCIR-12 STC Japanese development set: 1,959 pairs, some ratings NA"),
)}


def path_of(name: str, root: Path | None = None) -> Path:
    """Where data set ``name`` is installed."""
    return Path(root or EXTERNAL_DIR) / _entry(name).path


def available(name: str, root: Path | None = None) -> bool:
    """True if ``name`` is installed (present with the registered size)."""
    p = path_of(name, root)
    return p.is_file() and p.stat().st_size == _entry(name).size


def _entry(name: str) -> DataSet:
    if name not in REGISTRY:
        raise FetchError(f"unknown data set {name!r}; known: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _install(tmp: Path, target: Path, entry: DataSet, source: str) -> None:
    digest = _sha256(tmp)
    if digest != entry.sha256:
        tmp.unlink()
        raise FetchError(
            f"{entry.name}: checksum mismatch for {source} (sha256 {digest[:16]}..., expected "
            f"{entry.sha256[:16]}...); nothing was installed",
            path=source, hint="the source file is corrupt or truncated: fetch it again")
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)


def _copy_from_mirror(entry: DataSet, mirror: Path, tmp: Path) -> str:
    source = mirror / entry.path
    if not source.is_file():
        raise FetchError(f"{entry.name}: not in the mirror", path=source,
                         hint=f"the mirror must be laid out like data/external/ ({entry.path})")
    shutil.copyfile(source, tmp)
    return str(source)


def _download(entry: DataSet, tmp: Path, progress: bool, timeout: float) -> str:
    if entry.url is None:
        raise FetchError(f"{entry.name} has no download location; use --mirror DIR "
                         f"(or {MIRROR_ENV}) pointing at a copy laid out like data/external/")
    try:
        with urllib.request.urlopen(entry.url, timeout=timeout) as response, open(tmp, "wb") as out:
            total = int(response.headers.get("Content-Length") or 0) or None
            with tqdm(total=total, unit="B", unit_scale=True, desc=entry.name,
                      disable=not progress) as bar:
                for block in iter(lambda: response.read(1 << 16), b""):
                    out.write(block)
                    bar.update(len(block))
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        raise FetchError(f"{entry.name}: download from {entry.url} failed ({exc})",
                         hint=f"check the network, or use --mirror DIR / {MIRROR_ENV}") from None
    if entry.gzip:
        raw = tmp.with_suffix(".gz.tmp")
        os.replace(tmp, raw)
        try:
            with gzip.open(raw, "rb") as src, open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
        except (OSError, EOFError) as exc:
            raise FetchError(f"{entry.name}: the download is not valid gzip ({exc})") from None
        finally:
            raw.unlink(missing_ok=True)
    return entry.url


def fetch(names=None, mirror: str | os.PathLike | None = None, root: Path | None = None,
          progress: bool = True, timeout: float = 60.0) -> dict[str, Path]:
    """Install data sets (all by default); returns name -> installed path.

    ``mirror`` (or ``$EVALKIT_DATA_MIRROR``) copies from a local directory
    instead of downloading.  Raises :class:`FetchError` on the first failure;
    sets installed before it stay installed.
    """
    root = Path(root or EXTERNAL_DIR)
    mirror = mirror or os.environ.get(MIRROR_ENV) or None
    mirror = Path(mirror) if mirror else None
    if mirror is not None and not mirror.is_dir():
        raise FetchError("mirror folder not found", path=mirror)
    out = {}
    for name in names or list(REGISTRY):
        entry = _entry(name)
        target = root / entry.path
        if target.is_file() and _sha256(target) == entry.sha256:
            out[name] = target
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            source = (_copy_from_mirror(entry, mirror, tmp) if mirror
                      else _download(entry, tmp, progress, timeout))
            _install(tmp, target, entry, source)
        finally:
            tmp.unlink(missing_ok=True)
        out[name] = target
    return out
