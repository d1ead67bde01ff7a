#!/bin/sh
# The project's tests (a stand-in the example runs).
echo "12 passing"
