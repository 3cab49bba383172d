// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the uverbs file's handle XArray costs under two allocation rules,
 * measured in the running kernel at module load:
 *  - lowest free: xa_alloc() in [0, U32_MAX], the rule of Linux 6.12
 *    (rdma_core.c idr_add_uobj());
 *  - never reuse: __xa_alloc() in [next, INT_MAX] under xa_lock, then
 *    next = id + 1, the rule of kernel series v3 patch 1.
 * Each "file" is an XA_FLAGS_ALLOC XArray used the way uverbs uses it: a
 * create reserves a number (a NULL entry), commits the object with
 * xa_store(), a destroy erases it.  For each pattern of live objects it
 * prints the nodes the XArray holds (counted by walking the tree), the
 * time of an xa_load() of a live handle in random order, of one
 * create+destroy pair, how many creates need a new leaf node, and the
 * time of one xa_for_each() over all entries.  xa_handles_native.c
 * builds the same file as a userspace program.
 *
 * Loading fails (-EINVAL) when a check fails: a live handle that does not
 * load its own object, a never-reuse number given twice (the numbers must
 * rise strictly), a tree built by placing the live numbers that differs
 * from the one real churn left, or a never-reuse file that gives a
 * number past INT_MAX.  On success it stays loaded, holding nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

static unsigned int nr_live = 100000;
module_param(nr_live, uint, 0444);
MODULE_PARM_DESC(nr_live, "long-lived objects per pattern (100000)");

static unsigned int nr_pairs = 100000;
module_param(nr_pairs, uint, 0444);
MODULE_PARM_DESC(nr_pairs, "create+destroy pairs timed per pattern");

/* Churn patterns at or below this k run for real; above it, placed. */
static unsigned int real_churn_max = 63;
module_param(real_churn_max, uint, 0444);
MODULE_PARM_DESC(real_churn_max, "largest k run as real churn (63)");

enum alloc_rule { LOWEST_FREE, NEVER_REUSE };

static const char *const rule_name[] = {
	[LOWEST_FREE] = "lowest-free",
	[NEVER_REUSE] = "never-reuse",
};

/* The part of struct ib_uverbs_file the handle rules touch. */
struct handle_file {
	struct xarray xa;
	enum alloc_rule rule;
	u32 next;		/* never reuse: lowest number never given */
	u32 last_given;		/* never reuse: to check the rise */
	bool given_any;
	bool reuse_seen;	/* never reuse: a number came twice */
};

/* Stands for a struct ib_uobject: the entry knows its own number. */
struct bench_obj {
	u32 id;
};

static int never_reuse_alloc(struct handle_file *f, u32 *id)
{
	int err;

	xa_lock(&f->xa);
	for (;;) {
		err = __xa_alloc(&f->xa, id, NULL,
				 XA_LIMIT(f->next, INT_MAX), GFP_KERNEL);
		if (err)
			break;
		/*
		 * __xa_alloc() may drop the lock to allocate a node; another
		 * create may then have taken numbers past *id, so *id is
		 * below next although it was free: give it back, try again.
		 */
		if (*id >= f->next) {
			f->next = *id + 1;
			break;
		}
		__xa_erase(&f->xa, *id);
	}
	xa_unlock(&f->xa);
	if (err)
		return err;
	if (f->given_any && *id <= f->last_given)
		f->reuse_seen = true;
	f->last_given = *id;
	f->given_any = true;
	return 0;
}

/* Reserve a number as idr_add_uobj() does: the entry stays NULL. */
static int handle_alloc(struct handle_file *f, u32 *id)
{
	if (f->rule == LOWEST_FREE)
		return xa_alloc(&f->xa, id, NULL, xa_limit_32b, GFP_KERNEL);
	return never_reuse_alloc(f, id);
}

/* A create: reserve, then commit the object as alloc_commit does. */
static int handle_create(struct handle_file *f, struct bench_obj *obj)
{
	int err = handle_alloc(f, &obj->id);

	if (err)
		return err;
	return xa_err(xa_store(&f->xa, obj->id, obj, GFP_KERNEL));
}

static void handle_destroy(struct handle_file *f, struct bench_obj *obj)
{
	xa_erase(&f->xa, obj->id);
}

static void file_init(struct handle_file *f, enum alloc_rule rule)
{
	xa_init_flags(&f->xa, XA_FLAGS_ALLOC);
	f->rule = rule;
	f->next = 0;
	f->given_any = false;
	f->reuse_seen = false;
}

static unsigned long count_nodes_below(struct xarray *xa, void *entry)
{
	struct xa_node *node;
	unsigned long n = 1;
	unsigned int i;

	if (!xa_is_node(entry))
		return 0;
	node = xa_to_node(entry);
	for (i = 0; i < XA_CHUNK_SIZE; i++)
		n += count_nodes_below(xa, xa_entry_locked(xa, node, i));
	return n;
}

/* Nodes the XArray holds, by walking it: exact, unlike slab totals. */
static unsigned long count_nodes(struct xarray *xa)
{
	unsigned long n;

	xa_lock(xa);
	n = count_nodes_below(xa, xa_head_locked(xa));
	xa_unlock(xa);
	return n;
}

/* One pattern: how the long-lived set is made. */
struct pattern {
	const char *name;
	u32 churn;		/* short-lived objects after each long-lived */
	bool spread;		/* live numbers spread over [0, INT_MAX] */
};

static const struct pattern patterns[] = {
	{ "kept", 0, false },
	{ "churn k=1", 1, false },
	{ "churn k=63", 63, false },
	{ "churn k=1000", 1000, false },
	{ "spread to INT_MAX", 0, true },
};

/* The distance between consecutive long-lived numbers under never reuse. */
static u32 live_stride(const struct pattern *p)
{
	if (p->spread)
		return (u32)(((u64)INT_MAX + 1 - 2ULL * (nr_pairs + 1000)) /
			     nr_live);
	return p->churn + 1;
}

/* The number the i-th long-lived object gets under a rule. */
static u32 expected_id(const struct pattern *p, enum alloc_rule rule, u32 i)
{
	return rule == LOWEST_FREE ? i : i * live_stride(p);
}

static bool runs_real(const struct pattern *p)
{
	return !p->spread && p->churn <= real_churn_max;
}

struct bench_state {
	struct bench_obj *live;		/* nr_live long-lived objects */
	struct bench_obj short_obj;
	u32 *order;			/* a random permutation of 0..N-1 */
	unsigned long real_nodes;	/* nodes real churn left, if run */
};

/* Creates the long-lived set by running the pattern's creates. */
static int build_real(struct handle_file *f, const struct pattern *p,
		      struct bench_state *s)
{
	u32 i, j;
	int err;

	for (i = 0; i < nr_live; i++) {
		err = handle_create(f, &s->live[i]);
		if (err)
			return err;
		for (j = 0; j < p->churn; j++) {
			err = handle_create(f, &s->short_obj);
			if (err)
				return err;
			handle_destroy(f, &s->short_obj);
		}
		cond_resched();
	}
	return 0;
}

/*
 * Puts the long-lived objects at the numbers the rule would have given:
 * an XArray frees a node when its last entry goes, so the tree depends
 * only on the numbers it holds (build_and_check() compares both ways
 * where the churn is run for real).
 */
static int build_placed(struct handle_file *f, const struct pattern *p,
			struct bench_state *s)
{
	u32 i;
	int err;

	for (i = 0; i < nr_live; i++) {
		s->live[i].id = expected_id(p, f->rule, i);
		err = xa_insert(&f->xa, s->live[i].id, &s->live[i],
				GFP_KERNEL);
		if (err)
			return err;
		cond_resched();
	}
	if (f->rule == NEVER_REUSE) {
		f->next = nr_live * live_stride(p);
		f->last_given = f->next - 1;
		f->given_any = true;
	}
	return 0;
}

/* Every live handle loads its own object; ids are where they should be. */
static bool live_set_ok(struct handle_file *f, const struct pattern *p,
			struct bench_state *s)
{
	unsigned long index, n = 0;
	struct bench_obj *obj;
	u32 i;

	for (i = 0; i < nr_live; i++) {
		if (s->live[i].id != expected_id(p, f->rule, i) ||
		    xa_load(&f->xa, s->live[i].id) != &s->live[i]) {
			pr_err("%s %s: object %u: handle %u does not load it\n",
			       rule_name[f->rule], p->name, i, s->live[i].id);
			return false;
		}
	}
	xa_for_each(&f->xa, index, obj)
		n++;
	if (n != nr_live) {
		pr_err("%s %s: %lu entries, %u live objects\n",
		       rule_name[f->rule], p->name, n, nr_live);
		return false;
	}
	return true;
}

struct figures {
	unsigned long nodes;
	u64 load_ns10;		/* tenths of ns per xa_load */
	u64 pair_ns;		/* per create+destroy pair */
	u32 leaf_allocs;	/* per 1000 pairs, a create's new leaf node */
	u64 walk_us;		/* one xa_for_each over all */
};

/* Best of three passes over the live set in random order. */
static int time_loads(struct handle_file *f, struct bench_state *s,
		      struct figures *out)
{
	u64 best = U64_MAX, t;
	int pass;
	u32 i;

	for (pass = 0; pass < 3; pass++) {
		bool ok = true;

		t = ktime_get_ns();
		for (i = 0; i < nr_live; i++) {
			struct bench_obj *obj = &s->live[s->order[i]];

			ok &= xa_load(&f->xa, obj->id) == obj;
		}
		t = ktime_get_ns() - t;
		if (!ok)
			return -EINVAL;
		best = min(best, t);
		cond_resched();
	}
	out->load_ns10 = div_u64(best * 10, nr_live);
	return 0;
}

static void time_walks(struct handle_file *f, struct figures *out)
{
	u64 best = U64_MAX, t;
	unsigned long index, n;
	struct bench_obj *obj;
	int pass;

	for (pass = 0; pass < 3; pass++) {
		n = 0;
		t = ktime_get_ns();
		xa_for_each(&f->xa, index, obj)
			n++;
		t = ktime_get_ns() - t;
		best = min(best, t);
		cond_resched();
	}
	out->walk_us = div_u64(best, 1000);
}

static int time_pairs(struct handle_file *f, struct bench_state *s,
		      struct figures *out)
{
	u64 t;
	u32 i;
	int err;

	t = ktime_get_ns();
	for (i = 0; i < nr_pairs; i++) {
		err = handle_create(f, &s->short_obj);
		if (err)
			return err;
		handle_destroy(f, &s->short_obj);
		if (!(i & 1023))
			cond_resched();
	}
	t = ktime_get_ns() - t;
	out->pair_ns = div_u64(t, nr_pairs);
	return 0;
}

/*
 * How many creates of a pair need a new leaf node: the one the entry
 * lands in holds no other entry, so the XArray had freed it (or never
 * had it).  Untimed, after the timed pairs, on 1000 more.
 */
static int count_leaf_allocs(struct handle_file *f, struct bench_state *s,
			     struct figures *out)
{
	unsigned long base, index;
	unsigned int n;
	void *entry;
	u32 i;
	int err;

	out->leaf_allocs = 0;
	for (i = 0; i < 1000; i++) {
		err = handle_create(f, &s->short_obj);
		if (err)
			return err;
		base = s->short_obj.id & ~(unsigned long)XA_CHUNK_MASK;
		n = 0;
		xa_for_each_range(&f->xa, index, entry, base,
				  base + XA_CHUNK_MASK)
			n++;
		if (n == 1)
			out->leaf_allocs++;
		handle_destroy(f, &s->short_obj);
	}
	return 0;
}

static void file_clear(struct handle_file *f)
{
	xa_destroy(&f->xa);
}

/*
 * Builds one pattern under one rule, checks it, measures it.  Where the
 * pattern runs for real, the placed tree is built too and must have as
 * many nodes.
 */
static int run_one(enum alloc_rule rule, const struct pattern *p,
		   struct bench_state *s, struct figures *out)
{
	struct handle_file f;
	unsigned long placed_nodes = 0;
	int err;

	if (runs_real(p)) {
		file_init(&f, rule);
		err = build_placed(&f, p, s);
		placed_nodes = count_nodes(&f.xa);
		file_clear(&f);
		if (err)
			return err;
		file_init(&f, rule);
		err = build_real(&f, p, s);
	} else {
		file_init(&f, rule);
		err = build_placed(&f, p, s);
	}
	if (err)
		goto out;
	err = -EINVAL;
	if (!live_set_ok(&f, p, s))
		goto out;
	out->nodes = count_nodes(&f.xa);
	if (runs_real(p) && out->nodes != placed_nodes) {
		pr_err("%s %s: real churn left %lu nodes, placing %lu\n",
		       rule_name[rule], p->name, out->nodes, placed_nodes);
		goto out;
	}
	err = time_loads(&f, s, out);
	if (err) {
		pr_err("%s %s: a timed load missed\n", rule_name[rule],
		       p->name);
		goto out;
	}
	time_walks(&f, out);
	err = time_pairs(&f, s, out);
	if (!err)
		err = count_leaf_allocs(&f, s, out);
	if (err)
		goto out;
	if (!live_set_ok(&f, p, s)) {
		err = -EINVAL;
		goto out;
	}
	if (f.reuse_seen) {
		pr_err("%s %s: a number was given twice\n", rule_name[rule],
		       p->name);
		err = -EINVAL;
	}
out:
	file_clear(&f);
	return err;
}

/* A file that gave INT_MAX gives nothing more: no wrap to low numbers. */
static int check_strict_end(void)
{
	struct bench_obj obj[3];
	struct handle_file f;
	int i, err = 0;

	file_init(&f, NEVER_REUSE);
	f.next = INT_MAX - 1;
	for (i = 0; i < 2 && !err; i++)
		err = handle_create(&f, &obj[i]);
	if (!err && (obj[0].id != INT_MAX - 1 || obj[1].id != INT_MAX)) {
		pr_err("strict end: gave %u, %u\n", obj[0].id, obj[1].id);
		err = -EINVAL;
	}
	if (!err) {
		handle_destroy(&f, &obj[0]);
		if (handle_create(&f, &obj[2]) == 0) {
			pr_err("strict end: gave %u after INT_MAX\n",
			       obj[2].id);
			err = -EINVAL;
		}
	}
	file_clear(&f);
	return err;
}

static void shuffle(u32 *order, u32 n)
{
	u32 i, j, tmp;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = get_random_u32_below(i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
}

static void print_row(enum alloc_rule rule, const struct pattern *p,
		      const struct figures *fig)
{
	u64 bytes = (u64)fig->nodes * sizeof(struct xa_node);

	pr_info("| %s | %s | %s | %lu | %llu | %llu.%llu | %llu | %u | %llu.%03llu |\n",
		p->name, rule_name[rule], runs_real(p) ? "run" : "placed",
		fig->nodes, div_u64(bytes, 1024),
		div_u64(fig->load_ns10, 10), fig->load_ns10 % 10,
		fig->pair_ns, fig->leaf_allocs / 10,
		div_u64(fig->walk_us, 1000), fig->walk_us % 1000);
}

static int __init xa_handles_bench_init(void)
{
	struct bench_state s = {};
	struct figures fig;
	unsigned int i;
	int rule, err;

	if (!nr_live || !nr_pairs ||
	    (u64)nr_live * 1001 + nr_pairs + 1000 > INT_MAX)
		return -EINVAL;
	err = check_strict_end();
	if (err)
		return err;
	s.live = kvcalloc(nr_live, sizeof(*s.live), GFP_KERNEL);
	s.order = kvcalloc(nr_live, sizeof(*s.order), GFP_KERNEL);
	if (!s.live || !s.order) {
		err = -ENOMEM;
		goto out;
	}
	shuffle(s.order, nr_live);
	pr_info("live objects %u, pairs timed %u, sizeof(struct xa_node) %zu, nodes counted by walking the tree\n",
		nr_live, nr_pairs, sizeof(struct xa_node));
	pr_info("| pattern | rule | built | xa_nodes | KiB | ns/load | ns/pair | %% pairs new leaf | ms/walk |\n");
	pr_info("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (i = 0; i < ARRAY_SIZE(patterns); i++) {
		for (rule = LOWEST_FREE; rule <= NEVER_REUSE; rule++) {
			err = run_one(rule, &patterns[i], &s, &fig);
			if (err) {
				pr_err("%s %s: failed (%d)\n", rule_name[rule],
				       patterns[i].name, err);
				goto out;
			}
			print_row(rule, &patterns[i], &fig);
		}
	}
	pr_info("checks passed\n");
out:
	kvfree(s.order);
	kvfree(s.live);
	return err;
}

static void __exit xa_handles_bench_exit(void)
{
}

module_init(xa_handles_bench_init);
module_exit(xa_handles_bench_exit);
MODULE_DESCRIPTION("XArray cost of uverbs handle allocation rules");
MODULE_LICENSE("Dual BSD/GPL");
