/* core/order/order_types.h - the order wing's slice of a device: stream
 * records, the submission and epoch protocols, events and collects.
 *
 * Defined first, as jemalloc's *_types.h: core/types.h expands it inside
 * struct cm_device, where the types it names are complete. Guarded by the
 * device lock unless marked lock-free.
 */
#ifndef CM_ORDER_TYPES_H
#define CM_ORDER_TYPES_H

#define CM_DEVICE_ORDER \
	struct { \
		/* Stream records (streams.c); user_streams and tc_gen above. */ \
		cm_stream_rec legacy; \
		cm_stream_rec **stream_table; /* user streams by handle */ \
		size_t stream_table_cap; \
		cm_stream_rec *nb_list;       /* non-blocking streams, live and zombie */ \
		size_t nb_count; \
		cm_stream_rec *all_streams;   /* every record, for the checker and teardown */ \
		cm_stream_rec *user_list;     /* the records user_streams counts */ \
		cm_stream_rec *zombie_oldest, *zombie_newest; /* the zombies, for reaping */ \
		cm_stream_rec *retired_streams; /* records to reuse */ \
		/* For the tests: records and segments the stream paths visited \
		 * (reaping, orphaning a dead stream's segments, rule 4's idle proof), \
		 * the calls of cm_stream_reap, and the awaiting blocks put back. */ \
		struct { \
			uint64_t reaps, reap, orphan, idle, returned; \
		} visits; \
		/* The submission protocol (submit.c, fence.c). lock-free reads. */ \
		_Atomic bool quiet;          /* no user stream's ran flag is set */ \
		_Atomic bool covering;       /* a cover is under way: quiet proves nothing yet */ \
		_Atomic(cm_stream_rec *) ran_list; /* every record whose flag may be set (streams.c) */ \
		_Atomic uint64_t order_gen;  /* bumped each time fence_event is recorded by a cover */ \
		_Atomic uint32_t zombies;    /* destroyed streams whose tail may be pending */ \
		/* The epoch protocol (fence.c), with epoch above. lock-free reads. */ \
		_Atomic uint64_t ordered_epoch;   /* a fence was issued after these */ \
		_Atomic uint64_t completed_epoch; /* their work is proven complete */ \
		cm_event fence_event;             /* the last fence's legacy event */ \
		cm_event birth_event;             /* orders new streams (streams.c) */ \
		bool fence_recorded; \
		uint64_t idle_gen; /* the order generation whose cover event completed */ \
		cm_collect collect;      /* the oldest collect */ \
		cm_collect collect_next; /* a second, started only for pinned memory */ \
		cm_event *event_pool;    /* events to reuse (streams.c) */ \
		size_t nevents_pooled, event_pool_cap; \
	}

#endif
