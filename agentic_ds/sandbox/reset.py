"""What a kernel forgets when it passes from one stage to the next: the code it runs, silently, to do so.

A stage's kernel is handed to the next stage that needs one instead of being shut down (`CodeRunner`): starting a
kernel and importing pandas, matplotlib and scipy into it again costs one to two CPU-seconds per stage. What a
stage must never inherit is the earlier stage's state, so the handover clears, in the kernel:

- every variable (IPython's own `reset`: the namespace, the output cache) and every figure;
- modules imported from the run's own files (a stage that writes and imports `outputs/helpers.py` imports its own);
- the working directory, `sys.path`, the environment and the warning filters, as they were when the kernel started;
- the options of matplotlib, pandas and numpy (`rcParams`, `pd.set_option`, `np.seterr`, print options).

Modules of installed packages stay imported: importing them again would give the same modules. Anything a stage
changes inside such a module by other means (replacing one of its functions) is not undone; code of one run is
trusted with the run's files already, which reach every later stage anyway.
"""

from __future__ import annotations

# Run once when the kernel is ready, before any code of the analysis: what a handover goes back to.
BASELINE_CODE = """\
import os as _os, sys as _sys, warnings as _warnings
_sys._agentic_ds_baseline = (_os.getcwd(), list(_sys.path), dict(_os.environ), list(_warnings.filters))
del _os, _sys, _warnings
"""

# Raises (an error reply) when the kernel cannot be put back: the runner then starts a fresh one.
RESET_CODE = """\
def _agentic_ds_reset():
    import gc, os, sys, warnings
    cwd, path, environ, filters = sys._agentic_ds_baseline
    os.chdir(cwd)
    sys.path[:] = path
    os.environ.clear()
    os.environ.update(environ)
    warnings.filters[:] = filters
    mutated = getattr(warnings, "_filters_mutated", None)   # tells modules their warning caches are stale (<= 3.12)
    if mutated is not None:
        mutated()
    own = cwd.rstrip(os.sep) + os.sep
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(own):
            del sys.modules[name]
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
    if "matplotlib" in sys.modules:
        sys.modules["matplotlib"].rc_file_defaults()
    if "pandas" in sys.modules:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # resetting deprecated options warns
            sys.modules["pandas"].reset_option("all")
    if "numpy" in sys.modules:
        numpy = sys.modules["numpy"]
        numpy.seterr(divide="warn", over="warn", under="ignore", invalid="warn")
        defaults = getattr(sys.modules.get("numpy._core.printoptions"), "default_format_options_dict", None)
        if defaults:
            numpy.set_printoptions(**defaults)
    get_ipython().reset(new_session=False)
    gc.collect()
_agentic_ds_reset()
"""
