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

__all__ = ["DataSet", "REGISTRY", "LLMJUDGE_JUDGES", "EXTERNAL_DIR", "MIRROR_ENV", "fetch", "path_of", "available",
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


#: LLMJudge 2024 (LLM4Eval workshop, SIGIR 2024): the human labels' and the judges' repositories
#: at the pinned commits, and the 33 public judge files (name, bytes, sha256).
LLMJUDGE_HUMAN_URL = ("https://raw.githubusercontent.com/llm4eval/LLMJudge/"
                      "81159c68260d383f8da1dad8a14f6d914a9054a9/data/llmjudge_test_qrel_idx.txt")
LLMJUDGE_BENCHMARK_URL = ("https://raw.githubusercontent.com/llm4eval/LLMJudge-benchmark/"
                          "86f57f60606ac1d269f535528c11cfeda9d4758d/")
LLMJUDGE_JUDGES = (
    ("NISTRetrieval-instruct0", 61295, "e4b1d4dc953bed2aa510a111bb221d4c70864778f665b3b26b879f9dae8d8658"),
    ("NISTRetrieval-instruct1", 61295, "c91ea0ea23c487586d2f25f1cda6f3712ab50c816d06183f424b37cf528809ea"),
    ("NISTRetrieval-instruct2", 61295, "3e89a906a47146ec60977e0c27914dd40ba7b06fb8ecba66a1ea2130d06e3eb9"),
    ("NISTRetrieval-reason0", 61295, "af1589779da78d74c885d40e78ff2341744c715732ce5e75064c8ce29f68ac44"),
    ("NISTRetrieval-reason1", 61295, "5fe00dd7c60a6e461ba693091d70a2f98763127780459a53227cb5ec873d4bb8"),
    ("NISTRetrieval-reason2", 61295, "91ea013a107602a070e70f43fd78ab5b3d6a4f7f739db16acaf966c96b97124d"),
    ("Olz-exp", 61295, "b5d5fa761890960b5290f0a3dfe72dcf877432612c32602a25a3993e6bfb55ff"),
    ("Olz-gpt4o", 61295, "e65ddf334d30d653a1421824eed4fa931a04afd709fddba49a1efbbc41d0973e"),
    ("Olz-halfbin", 61295, "596ac538c3ec71c5bcb88c2c954dc3c5842751168a5a9f532d4ec1bf2e3d51e6"),
    ("Olz-multiprompt", 61295, "05241b47beaffac37c10b30d2c51fed04a27992243e2bda711e06157e338bac9"),
    ("Olz-somebin", 61295, "751e6d77f8995d14d9383afe88b06076690660c72e42df16ca7ea755c32d0fb5"),
    ("RMITIR-GPT4o", 61295, "7b2a67e6b6215f84377c5b9b3b622aeae6fff54e03806f7b90caec36379293d6"),
    ("RMITIR-llama38b", 61295, "0d36c19426faab14cff71d3179f10f5fd520b10a2944d75b54106d432df024b4"),
    ("RMITIR-llama70B", 61295, "305113980beeb1e2b11e7bd8dc28e0ef9e29096280f4c1f675c846e34d8df5fe"),
    ("TREMA-4prompts", 61295, "39ddc0571ea5cb190b184fb7174bf0db87e6bb1148fdf8db21e4d869f2c75664"),
    ("TREMA-CoT", 61295, "fa2be73efd8d936cabaeb40bda714c58063c37ec672c8e7a3ff2ed134ff55dad"),
    ("TREMA-all", 61295, "519d4eb5f3609551641010d0eafe0daf0cf35431de20a156b98749007db57d00"),
    ("TREMA-direct", 61295, "7ee6f75094018b43aa2251318eb29ec7d4e38b624e8a48bccf696defcdfab978"),
    ("TREMA-naiveBdecompose", 61295, "9428446bedb23ed8c502b00dc27575bad067d35e5f863f346dc673339c6b304d"),
    ("TREMA-nuggets", 61295, "15d3dc47731d521206fd35be49b389bb311698c929bcb2dfa9bc41ba27b1544b"),
    ("TREMA-other", 61295, "e779bf5ffcb8ae61d4052c870f9b713e77db45cf5300f897b27b3715eab883ab"),
    ("TREMA-questions", 61295, "1ff7f41d782ba3151332216294fac02cf0d300b623eae1a6bff3d7de11ebb0fc"),
    ("TREMA-rubric0", 61295, "6b0476502a280e43a099a8e3a783b4383017be23a1e13252128f350567116836"),
    ("TREMA-sumdecompose", 61295, "d7e8dcb1f07d05404385e382fdabfc5fd46472278cf82d79d6c5d195af5ee320"),
    ("h2oloo-fewself", 61295, "f27b162c1c0c911404b1fdbfff474e9ebadd8bc44267bd77adfcf0cc7d3f7aee"),
    ("h2oloo-zeroshot1", 61295, "f817c0dddee9978133d217eebdefaf3bc6005e7366504767eb8323d5c8ad4a0d"),
    ("h2oloo-zeroshot2", 61296, "13ddbdde8cd34eea8084508b6187404d5450b81e53ad9b04c1ec57add3857c5d"),
    ("prophet-setting1", 61295, "924d7adf598e7882363349cda31e64f4d43e9142c9625380e428466b34a72f88"),
    ("prophet-setting2", 61295, "c38c59b6388122616be4a8c8fa875bede6cd12ad01396bb1164170bf96a1de63"),
    ("prophet-setting3", 61295, "ae60a7bcd09c35bf6bf703d5f63c750726ac7be06f10d85a46f454c1575eab22"),
    ("willia-umbrela1", 61295, "a7a40aca152a13313b7e39e5356d876f3f7b0d1d8f3ddadc3c4185bde350db01"),
    ("willia-umbrela2", 61295, "008fde13659027484106868ebf58a0768a85e33d12a3a3168f5f11524b4ad2e3"),
    ("willia-umbrela3", 61295, "55a1cbfaa702b125bffe76d6e86fccec59f42306d2c0c3fd24e15112db4d2d7c"),
)


def _llmjudge() -> tuple[DataSet, ...]:
    """The human labels, the 33 judge files and the MIT notice kept beside them."""
    human = DataSet("llmjudge-human", "llmjudge-2024/llmjudge_test_qrel_idx.txt", LLMJUDGE_HUMAN_URL,
                    61295, "3a2169a62cecf8725acf402be3222f53399fd5b3467f9f734aa3b2bbd583426c",
                    "LLMJudge challenge data (TREC Deep Learning 2023 labels), for research use",
                    "LLMJudge 2024 test set: human labels of 4,423 query-passage pairs over 25 "
                    "topics, grades 0-3")
    notice = DataSet("llmjudge-licence", "llmjudge-2024/submissions/LICENSE",
                     LLMJUDGE_BENCHMARK_URL + "LICENSE", 1075,
                     "c548aad7374d7c15246ca651aabaf8afb144cc79775ae1be4e1d63e0a93a7527", "MIT",
                     "The MIT notice of LLMJudge-benchmark, kept beside the judges' files")
    judges = tuple(
        DataSet(f"llmjudge-{run}", f"llmjudge-2024/submissions/{run}.txt",
                f"{LLMJUDGE_BENCHMARK_URL}submissions/scores/{run}.txt", size, sha, "MIT",
                f"LLMJudge 2024 submission {run}: one LLM judge's labels of the same 4,423 pairs")
        for run, size, sha in LLMJUDGE_JUDGES)
    return (human, *judges, notice)


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
    *_llmjudge(),
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
