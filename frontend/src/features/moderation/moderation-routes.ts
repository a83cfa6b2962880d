/** spec 2: the ban history, the one guarded page a banned user still reaches (the banned screen's View Details). */
export const BAN_HISTORY_PATH = '/security-center/view-ban-history';
