"""The notebooks' exercises: each ``check_<name>(answer)`` prints whether an answer is right.

One module per paper (:mod:`.sakai`, :mod:`.wang`, :mod:`.wang_preferences`, :mod:`.kim`,
:mod:`.real_data`, :mod:`.llmjudge2024`, :mod:`.few_human_labels`)
on the shared :mod:`.core`; every check is re-exported here, so a notebook
calls ``exercises.check_<name>(answer)``.  A check computes the expected
answer itself from evalkit (never a typed-in number), prints "Right" with a
one-line explanation or "Not yet" with a hint, and returns a
:class:`~.core.Verdict`.  The worked solutions are not in the notebooks: they
live in ``notebooks/solutions/<notebook>.py`` and only the instructor edition
of the course book runs them.  Tests run every solution and a wrong answer
through its check.
"""

from __future__ import annotations

from . import core, few_human_labels, kim, llmjudge2024, real_data, sakai, wang, wang_preferences
from .core import *  # noqa: F401,F403
from .few_human_labels import *  # noqa: F401,F403
from .kim import *  # noqa: F401,F403
from .llmjudge2024 import *  # noqa: F401,F403
from .real_data import *  # noqa: F401,F403
from .sakai import *  # noqa: F401,F403
from .wang import *  # noqa: F401,F403
from .wang_preferences import *  # noqa: F401,F403

__all__ = sorted({*core.__all__, *sakai.__all__, *wang.__all__, *kim.__all__, *real_data.__all__,
                  *wang_preferences.__all__, *llmjudge2024.__all__,
                  *few_human_labels.__all__})
