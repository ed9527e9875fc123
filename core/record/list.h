/* core/record/list.h - the intrusive doubly linked lists of the core, written
 * once. A node may sit on several lists: each names its own link fields
 * (prev, next) and its ends (first; last for the lists kept in order,
 * which append at the end). Every operation is O(1); the caller holds the
 * lock that guards the list. */
#ifndef CM_LIST_H
#define CM_LIST_H

/* node goes first. */
#define CM_LIST_PUSH(first, node, prev, next)      \
	do {                                       \
		(node)->prev = NULL;               \
		(node)->next = (first);            \
		if (first)                         \
			(first)->prev = (node);    \
		(first) = (node);                  \
	} while (0)

/* node goes last (a list kept in order of arrival). */
#define CM_LIST_APPEND(first, last, node, prev, next) \
	do {                                          \
		(node)->next = NULL;                  \
		(node)->prev = (last);                \
		if (last)                             \
			(last)->next = (node);        \
		else                                  \
			(first) = (node);             \
		(last) = (node);                      \
	} while (0)

/* node leaves a list without a last end. */
#define CM_LIST_REMOVE(first, node, prev, next)               \
	do {                                                  \
		if ((node)->prev)                             \
			(node)->prev->next = (node)->next;    \
		else                                          \
			(first) = (node)->next;               \
		if ((node)->next)                             \
			(node)->next->prev = (node)->prev;    \
		(node)->prev = (node)->next = NULL;           \
	} while (0)

/* node leaves a list with a last end. */
#define CM_LIST_REMOVE_ENDS(first, last, node, prev, next) \
	do {                                               \
		if (!(node)->next)                         \
			(last) = (node)->prev;             \
		CM_LIST_REMOVE(first, node, prev, next);   \
	} while (0)

#endif
