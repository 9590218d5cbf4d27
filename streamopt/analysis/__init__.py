"""Analyses over the op graph: the storage model and its parts.

`StorageModel` (storage.py) is what rewrites and the verifier ask (docs/storage-model.md
states it). Its parts, built in dependency order for one module:

* `AliasAnalysis` (alias.py): which values name the same storage (tied chains, handovers,
  returns);
* `CallGraph` (calls.py): call sites and what each function does with arguments and results;
* `LastUseAnalysis` (last_use.py): whether a storage may be used after an op, and in which
  order ops may run;
* `MutationAnalysis` (mutation.py): in-place writes, frees and escapes;
* `OwnershipAnalysis` (ownership.py): owned, borrowed or shared storage, by-value arguments,
  and `conflict_at`, the one test of whether an op is an exclusive use of a storage.

`ranges.py` says which bytes a use touches; `producers.py` where a root's storage comes from.
"""
