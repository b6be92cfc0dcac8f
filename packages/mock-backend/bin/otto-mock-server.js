#!/usr/bin/env node
// The otto-mock-server command; the program is built to dist/ (this file exists before a build, so
// installs can link it).
import '../dist/cli.js';
