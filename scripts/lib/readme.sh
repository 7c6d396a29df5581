# Sourced by CI and the fresh-machine test: `readme_block NAME` prints the command the README keeps
# between <!-- NAME --> and <!-- /NAME --> (the fence lines left out), so both run it as written.
readme_block() { sed -n "/<!-- $1 -->/,/<!-- \/$1 -->/p" README.md | grep -v '^<!--' | grep -v '^```'; }
