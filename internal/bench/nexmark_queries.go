package bench

import (
	"fmt"
	"strings"
)

// nexmarkQuery is one query of the Nexmark suite as Flink's nexmark
// repository (github.com/nexmark/nexmark, nexmark-flink/src/main/resources/queries)
// has it: its sink table and INSERT, over the tables person, auction and
// bid instead of Flink's views of the same names. Queries named x-... are
// Sluice's own, measured against hand-written Go programs.
type nexmarkQuery struct {
	name string
	// ddl declares the sink table (and anything else the query needs).
	ddl string
	// insert is the measured INSERT INTO nexmark_<name>.
	insert string
	// bidsOnly says the query reads no table but bid, so it can run over
	// the bids read from Kafka too.
	bidsOnly bool
}

// blackhole declares the sink nexmark_<name> with the given columns.
func blackhole(name, cols string) string {
	return fmt.Sprintf("CREATE TABLE nexmark_%s (%s) WITH ('connector' = 'blackhole');", name, cols)
}

const bidSinkColumns = "auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra VARCHAR"

// nexmarkQueries are q0 to q22 of Flink's suite (q6, which Flink cannot
// run either, included), then Sluice's variants and extra queries.
var nexmarkQueries = []nexmarkQuery{
	{name: "q0", bidsOnly: true, ddl: blackhole("q0", bidSinkColumns),
		insert: "INSERT INTO nexmark_q0 SELECT auction, bidder, price, dateTime, extra FROM bid"},
	{name: "q1", bidsOnly: true, ddl: blackhole("q1", "auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), dateTime TIMESTAMP(3), extra VARCHAR"),
		insert: "INSERT INTO nexmark_q1 SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid"},
	{name: "q2", bidsOnly: true, ddl: blackhole("q2", "auction BIGINT, price BIGINT"),
		insert: "INSERT INTO nexmark_q2 SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0"},
	{name: "q3", ddl: blackhole("q3", "name VARCHAR, city VARCHAR, state VARCHAR, id BIGINT"),
		insert: `INSERT INTO nexmark_q3 SELECT P.name, P.city, P.state, A.id
FROM auction AS A INNER JOIN person AS P ON A.seller = P.id
WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')`},
	{name: "q4", ddl: blackhole("q4", "id BIGINT, final BIGINT"),
		insert: `INSERT INTO nexmark_q4 SELECT Q.category, AVG(Q.final)
FROM (
    SELECT MAX(B.price) AS final, A.category
    FROM auction A, bid B
    WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
    GROUP BY A.id, A.category
) Q
GROUP BY Q.category`},
	{name: "q5", bidsOnly: true, ddl: blackhole("q5", "auction BIGINT, num BIGINT"),
		insert: `INSERT INTO nexmark_q5 SELECT AuctionBids.auction, AuctionBids.num
FROM (
  SELECT auction, count(*) AS num, window_start AS starttime, window_end AS endtime
  FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
  GROUP BY auction, window_start, window_end
) AS AuctionBids
JOIN (
  SELECT max(CountBids.num) AS maxn, CountBids.starttime, CountBids.endtime
  FROM (
    SELECT count(*) AS num, window_start AS starttime, window_end AS endtime
    FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
    GROUP BY auction, window_start, window_end
  ) AS CountBids
  GROUP BY CountBids.starttime, CountBids.endtime
) AS MaxBids
ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND AuctionBids.num >= MaxBids.maxn`},
	{name: "q6", ddl: blackhole("q6", "seller VARCHAR, avg_price BIGINT"),
		insert: `INSERT INTO nexmark_q6 SELECT Q.seller,
    AVG(Q.price) OVER (PARTITION BY Q.seller ORDER BY Q.dateTime ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY A.id, A.seller ORDER BY B.price DESC) AS rownum
    FROM (SELECT A.id, A.seller, B.price, B.dateTime
        FROM auction AS A, bid AS B
        WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires)
    WHERE rownum <= 1
) AS Q`},
	{name: "q7", bidsOnly: true, ddl: blackhole("q7", bidSinkColumns),
		insert: `INSERT INTO nexmark_q7 SELECT B.auction, B.bidder, B.price, B.dateTime, B.extra
FROM bid B
JOIN (
  SELECT MAX(price) AS maxprice, window_end AS dateTime
  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) B1
ON B.price = B1.maxprice
WHERE B.dateTime BETWEEN B1.dateTime - INTERVAL '10' SECOND AND B1.dateTime`},
	{name: "q8", ddl: blackhole("q8", "id BIGINT, name VARCHAR, stime TIMESTAMP(3)"),
		insert: `INSERT INTO nexmark_q8 SELECT P.id, P.name, P.starttime
FROM (
  SELECT id, name, window_start AS starttime, window_end AS endtime
  FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY id, name, window_start, window_end
) P
JOIN (
  SELECT seller, window_start AS starttime, window_end AS endtime
  FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY seller, window_start, window_end
) A
ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime`},
	{name: "q9", ddl: blackhole("q9", `id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
  dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR,
  auction BIGINT, bidder BIGINT, price BIGINT, bid_dateTime TIMESTAMP(3), bid_extra VARCHAR`),
		insert: `INSERT INTO nexmark_q9
SELECT id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra,
    auction, bidder, price, bid_dateTime, bid_extra
FROM (
   SELECT A.*, B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
     ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.dateTime ASC) AS rownum
   FROM auction A, bid B
   WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
)
WHERE rownum <= 1`},
	// Flink's q10 writes to a partitioned file system table.
	{name: "q10", bidsOnly: true,
		ddl: `CREATE TABLE nexmark_q10 (auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra VARCHAR, dt STRING, hm STRING)
PARTITIONED BY (dt, hm) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/nexmark-q10/', 'format' = 'csv',
  'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.delay' = '1 min',
  'sink.partition-commit.policy.kind' = 'success-file', 'partition.time-extractor.timestamp-pattern' = '$dt $hm:00',
  'sink.rolling-policy.rollover-interval' = '1min', 'sink.rolling-policy.check-interval' = '1min');`,
		insert: "INSERT INTO nexmark_q10 SELECT auction, bidder, price, dateTime, extra, DATE_FORMAT(dateTime, 'yyyy-MM-dd'), DATE_FORMAT(dateTime, 'HH:mm') FROM bid"},
	{name: "q11", bidsOnly: true, ddl: blackhole("q11", "bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)"),
		insert: `INSERT INTO nexmark_q11 SELECT B.bidder, count(*) AS bid_count,
    SESSION_START(B.dateTime, INTERVAL '10' SECOND) AS starttime,
    SESSION_END(B.dateTime, INTERVAL '10' SECOND) AS endtime
FROM bid B
GROUP BY B.bidder, SESSION(B.dateTime, INTERVAL '10' SECOND)`},
	{name: "q12", bidsOnly: true, ddl: blackhole("q12", "bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)") +
		"\nCREATE VIEW B AS SELECT *, PROCTIME() AS p_time FROM bid;",
		insert: `INSERT INTO nexmark_q12 SELECT bidder, count(*) AS bid_count, window_start AS starttime, window_end AS endtime
FROM TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '10' SECOND))
GROUP BY bidder, window_start, window_end`},
	// Flink's q13 joins a side input file through the legacy file system
	// connector.
	{name: "q13", bidsOnly: true,
		ddl: `CREATE TABLE side_input (key BIGINT, ` + "`value`" + ` VARCHAR)
WITH ('connector.type' = 'filesystem', 'connector.path' = 'file:///tmp/side_input.txt', 'format.type' = 'csv');
` + blackhole("q13", "auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), `value` VARCHAR"),
		insert: `INSERT INTO nexmark_q13 SELECT B.auction, B.bidder, B.price, B.dateTime, S.` + "`value`" + `
FROM (SELECT *, PROCTIME() AS p_time FROM bid) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S
ON mod(B.auction, 10000) = S.key`},
	{name: "q14", bidsOnly: true,
		ddl: "CREATE FUNCTION count_char AS 'com.github.nexmark.flink.udf.CountChar';\n" +
			blackhole("q14", "auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), bidTimeType VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR, c_counts BIGINT"),
		insert: `INSERT INTO nexmark_q14 SELECT auction, bidder, 0.908 * price AS price,
    CASE
        WHEN HOUR(dateTime) >= 8 AND HOUR(dateTime) <= 18 THEN 'dayTime'
        WHEN HOUR(dateTime) <= 6 OR HOUR(dateTime) >= 20 THEN 'nightTime'
        ELSE 'otherTime'
    END AS bidTimeType,
    dateTime, extra, count_char(extra, 'c') AS c_counts
FROM bid
WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000`},
	{name: "q15", bidsOnly: true,
		ddl: blackhole("q15", "`day` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT, "+
			"total_bidders BIGINT, rank1_bidders BIGINT, rank2_bidders BIGINT, rank3_bidders BIGINT, "+
			"total_auctions BIGINT, rank1_auctions BIGINT, rank2_auctions BIGINT, rank3_auctions BIGINT"),
		insert: "INSERT INTO nexmark_q15 SELECT DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS `day`,\n" + rankCounts + "FROM bid GROUP BY DATE_FORMAT(dateTime, 'yyyy-MM-dd')"},
	{name: "q16", bidsOnly: true,
		ddl: blackhole("q16", "channel VARCHAR, `day` VARCHAR, `minute` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT, "+
			"total_bidders BIGINT, rank1_bidders BIGINT, rank2_bidders BIGINT, rank3_bidders BIGINT, "+
			"total_auctions BIGINT, rank1_auctions BIGINT, rank2_auctions BIGINT, rank3_auctions BIGINT"),
		insert: "INSERT INTO nexmark_q16 SELECT channel, DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS `day`, max(DATE_FORMAT(dateTime, 'HH:mm')) AS `minute`,\n" +
			rankCounts + "FROM bid GROUP BY channel, DATE_FORMAT(dateTime, 'yyyy-MM-dd')"},
	{name: "q17", bidsOnly: true,
		ddl: blackhole("q17", "auction BIGINT, `day` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT, "+
			"min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT"),
		insert: "INSERT INTO nexmark_q17 " + q17Select},
	{name: "q18", bidsOnly: true, ddl: blackhole("q18", "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR"),
		insert: `INSERT INTO nexmark_q18 SELECT auction, bidder, price, channel, url, dateTime, extra
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) AS rank_number FROM bid)
WHERE rank_number <= 1`},
	{name: "q19", bidsOnly: true, ddl: blackhole("q19", "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR, rank_number BIGINT"),
		insert: `INSERT INTO nexmark_q19 SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10`},
	{name: "q20",
		ddl: blackhole("q20", `auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, bid_dateTime TIMESTAMP(3), bid_extra VARCHAR,
  itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, auction_dateTime TIMESTAMP(3), expires TIMESTAMP(3),
  seller BIGINT, category BIGINT, auction_extra VARCHAR`),
		insert: `INSERT INTO nexmark_q20 SELECT auction, bidder, price, channel, url, B.dateTime, B.extra,
    itemName, description, initialBid, reserve, A.dateTime, expires, seller, category, A.extra
FROM bid AS B INNER JOIN auction AS A ON B.auction = A.id
WHERE A.category = 10`},
	{name: "q21", bidsOnly: true, ddl: blackhole("q21", "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, channel_id VARCHAR"),
		insert: `INSERT INTO nexmark_q21 SELECT auction, bidder, price, channel,
    CASE
        WHEN lower(channel) = 'apple' THEN '0'
        WHEN lower(channel) = 'google' THEN '1'
        WHEN lower(channel) = 'facebook' THEN '2'
        WHEN lower(channel) = 'baidu' THEN '3'
        ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
    END AS channel_id
FROM bid
WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) IS NOT NULL OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')`},
	{name: "q22", bidsOnly: true, ddl: blackhole("q22", "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, dir1 VARCHAR, dir2 VARCHAR, dir3 VARCHAR"),
		insert: `INSERT INTO nexmark_q22 SELECT auction, bidder, price, channel,
    SPLIT_INDEX(url, '/', 3) AS dir1, SPLIT_INDEX(url, '/', 4) AS dir2, SPLIT_INDEX(url, '/', 5) AS dir3
FROM bid`},
	// q1 into DECIMAL(18, 3): the same values held in an int64 rather than
	// q1's 16 bytes of DECIMAL(23, 3), to compare the two.
	{name: "q1-decimal18", bidsOnly: true, ddl: blackhole("q1_decimal18", "auction BIGINT, bidder BIGINT, price DECIMAL(18, 3), dateTime TIMESTAMP(3), extra VARCHAR"),
		insert: "INSERT INTO nexmark_q1_decimal18 SELECT auction, bidder, CAST(0.908 * price AS DECIMAL(18, 3)) AS price, dateTime, extra FROM bid"},
	// Sluice's: a group aggregation of COUNT and SUM per auction, a
	// tumbling window per auction, and an interval join of bids with their
	// auctions.
	{name: "x-group-agg", bidsOnly: true, ddl: blackhole("x_group_agg", "auction BIGINT, num BIGINT, total BIGINT"),
		insert: "INSERT INTO nexmark_x_group_agg " + groupAggSelect},
	{name: "x-tumble", bidsOnly: true, ddl: blackhole("x_tumble", "auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), num BIGINT, maxprice BIGINT"),
		insert: "INSERT INTO nexmark_x_tumble " + tumbleSelect},
	{name: "x-interval-join", ddl: blackhole("x_interval_join", "auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), seller BIGINT, category BIGINT"),
		insert: "INSERT INTO nexmark_x_interval_join " + intervalJoinSelect},
}

const rankCounts = `     count(*) AS total_bids,
     count(*) filter (where price < 10000) AS rank1_bids,
     count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,
     count(*) filter (where price >= 1000000) AS rank3_bids,
     count(distinct bidder) AS total_bidders,
     count(distinct bidder) filter (where price < 10000) AS rank1_bidders,
     count(distinct bidder) filter (where price >= 10000 and price < 1000000) AS rank2_bidders,
     count(distinct bidder) filter (where price >= 1000000) AS rank3_bidders,
     count(distinct auction) AS total_auctions,
     count(distinct auction) filter (where price < 10000) AS rank1_auctions,
     count(distinct auction) filter (where price >= 10000 and price < 1000000) AS rank2_auctions,
     count(distinct auction) filter (where price >= 1000000) AS rank3_auctions
`

// The queries that are compared with hand-written programs, as SELECTs
// (the test runs them as queries to check their results).
const (
	q17Select = `SELECT auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS ` + "`day`" + `,
     count(*) AS total_bids,
     count(*) filter (where price < 10000) AS rank1_bids,
     count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,
     count(*) filter (where price >= 1000000) AS rank3_bids,
     min(price) AS min_price, max(price) AS max_price, avg(price) AS avg_price, sum(price) AS sum_price
FROM bid
GROUP BY auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd')`
	groupAggSelect     = "SELECT auction, COUNT(*) AS num, SUM(price) AS total FROM bid GROUP BY auction"
	tumbleSelect       = "SELECT auction, window_start, window_end, COUNT(*) AS num, MAX(price) AS maxprice FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end"
	intervalJoinSelect = "SELECT B.auction, B.bidder, B.price, B.dateTime, A.seller, A.category FROM bid B JOIN auction A ON B.auction = A.id AND B.dateTime BETWEEN A.dateTime AND A.dateTime + INTERVAL '10' SECOND"
)

// selectOf returns the SELECT of an INSERT INTO sink SELECT ....
func selectOf(insert string) string {
	return insert[strings.Index(insert, "SELECT"):]
}
