# Sourced by the scripts: picks the Python they use and puts it first on PATH.
# The project's virtual environment (.venv, made by setup.sh where the system
# Python is externally managed, PEP 668) wins; else $PYTHON, else python3.
# Activating it also makes CMake's FindPython3 and every child process use it.
if [ -x "$PWD/.venv/bin/python" ]; then
    export VIRTUAL_ENV="$PWD/.venv"
    export PATH="$VIRTUAL_ENV/bin:$PATH"
    PYTHON="$VIRTUAL_ENV/bin/python"
else
    PYTHON="${PYTHON:-python3}"
fi
