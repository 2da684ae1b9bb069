"""The parts of ``bench_host.py``, one job each.

The parent (``bench_host.py``) reads its options (:mod:`.options`), starts the
servers under test (:mod:`.servers`: ``domicile host``, run by
:mod:`.host_process`, or the bare fan-out of :mod:`.anchor`) and the load
generators (:mod:`.load_child`, which drives each table through
:mod:`.load_table` and :mod:`.load_domicile` or :mod:`.load_bare`), measures
each phase (:mod:`.measure`, with the attribution of slow actions in
:mod:`.slow` and py-spy in :mod:`.profiling`), measures the Ed25519 work of an
event (:mod:`.signatures`), and writes the report (:mod:`.report`).  Every
process of a run is this same script: the load generators, the hosts and the
anchor are ``bench_host.py`` started with ``--load-child``,
``--domicile-host`` or ``--bare-server``.
"""
