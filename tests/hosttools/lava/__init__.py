"""LAVA: its job templates filled in, its logs read back, its jobs fetched.
The kind that judges a finished job is hosttools/targets/lava.py.

  jobs    the job templates of tests/lava/, filled in (local and lab jobs)
  lab     the jobs make lava-lab submits, and how a fetched one is judged
  log     a job's log: records, the kernel's serial lines, LAVA's results
  job     a finished job's definition and log, read back (LavaJob)
  fetch   a job fetched from a LAVA server with lavacli
  ids     LAVA's case names for pmctest's test IDs
  serve   a web server on 127.0.0.1 for the lab jobs' images
"""
