package fn

import (
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

func TestTimeFunctionsUTC(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		// "FROM_UNIXTIME(44) returns '1970-01-01 00:00:44' if in UTC time zone"
		{name: "FROM_UNIXTIME", args: []in{bigint(44)}, want: "1970-01-01 00:00:44"},
		{name: "FROM_UNIXTIME", args: []in{int_(44), str_("yyyy/MM/dd HH:mm")}, want: "1970/01/01 00:00"},
		{name: "FROM_UNIXTIME", args: []in{dbl(44.9)}, want: "1970-01-01 00:00:44"},
		{name: "FROM_UNIXTIME", args: []in{null(types.BigIntType)}, want: "NULL"},
		{name: "FROM_UNIXTIME", args: []in{str_("44")}, wantErr: "FROM_UNIXTIME expects (NUMERIC [, STRING format]); got (STRING)"},
		{name: "FROM_UNIXTIME", args: []in{bigint(1), str_("yyyy-MM-dd qq")}, wantErr: "illegal pattern character 'q'"},
		{name: "UNIX_TIMESTAMP", args: []in{str_("2023-08-23 17:36:15")}, want: "1692812175"},
		{name: "UNIX_TIMESTAMP", args: []in{str_("2023/08/23"), str_("yyyy/MM/dd")}, want: "1692748800"},
		// SimpleDateFormat ignores text after the pattern
		{name: "UNIX_TIMESTAMP", args: []in{str_("2023-08-23 17:36:15.999")}, want: "1692812175"},
		{name: "UNIX_TIMESTAMP", args: []in{str_("garbage")}, want: "-9223372036854775808"},
		{name: "UNIX_TIMESTAMP", args: nil, want: "1692812175"},
		{name: "TO_TIMESTAMP", args: []in{str_("2023-07-09 01:00:00.123456")}, want: "2023-07-09 01:00:00.123"},
		{name: "TO_TIMESTAMP", args: []in{str_("2023-7-9 1:00:00")}, want: "2023-07-09 01:00:00"},
		{name: "TO_TIMESTAMP", args: []in{str_("2023-07-09")}, want: "2023-07-09 00:00:00"},
		{name: "TO_TIMESTAMP", args: []in{str_("2023-07-09 01:00")}, want: "NULL"},
		{name: "TO_TIMESTAMP", args: []in{str_("not a time")}, want: "NULL"},
		{name: "TO_TIMESTAMP", args: []in{str_("09/07/2023 01h"), str_("dd/MM/yyyy HH'h'")}, want: "2023-07-09 01:00:00"},
		{name: "TO_TIMESTAMP", args: []in{str_("20230709010203"), str_("yyyyMMddHHmmss")}, want: "2023-07-09 01:02:03"},
		// the format falls back to the default reading
		{name: "TO_TIMESTAMP", args: []in{str_("2023-07-09 01:00:00"), str_("yyyy/MM/dd")}, want: "2023-07-09 01:00:00"},
		{name: "TO_TIMESTAMP", args: []in{str_("2023-02-30"), str_("yyyy-MM-dd")}, want: "2023-02-28 00:00:00"},
		{name: "TO_TIMESTAMP", args: []in{str_("x"), str_("yyyy")}, want: "NULL"},
		// "TO_TIMESTAMP_LTZ(1689000000, 0)"-style epoch seconds and millis
		{name: "TO_TIMESTAMP_LTZ", args: []in{bigint(1692812175), int_(0)}, want: "2023-08-23 17:36:15Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{bigint(1692812175123), int_(3)}, want: "2023-08-23 17:36:15.123Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{dbl(1.5), int_(0)}, want: "1970-01-01 00:00:01.5Z"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{bigint(1), int_(6)}, wantErr: "precision 0 or 3"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{bigint(1), col(int_(0))}, wantErr: "constant precision"},
		{name: "TO_TIMESTAMP_LTZ", args: []in{bigint(1 << 60), int_(0)}, want: "NULL"},
		// "TO_DATE('2023-01-01')"
		{name: "TO_DATE", args: []in{str_("2023-01-01")}, want: "2023-01-01"},
		{name: "TO_DATE", args: []in{str_("2023-1-5 10:00:00")}, want: "2023-01-05"},
		{name: "TO_DATE", args: []in{str_("01.05.2023"), str_("dd.MM.yyyy")}, want: "2023-05-01"},
		{name: "TO_DATE", args: []in{str_("2023-13-01")}, want: "NULL"},
		{name: "DATE_FORMAT", args: []in{ts("2023-08-23 17:36:15.123"), str_("yyyy-MM-dd HH:mm:ss.SSS")}, want: "2023-08-23 17:36:15.123"},
		{name: "DATE_FORMAT", args: []in{ts("2023-08-23 17:36:15"), str_("EEE, d MMM yyyy hh:mm a")}, want: "Wed, 23 Aug 2023 05:36 PM"},
		{name: "DATE_FORMAT", args: []in{ts("2023-08-23 07:06:05"), str_("EEEE MMMM D H:m:s k K")}, want: "Wednesday August 235 7:6:5 7 7"},
		{name: "DATE_FORMAT", args: []in{ts("2023-08-23 00:00:00"), str_("'day' dd 'of' MM, ''yy")}, want: "day 23 of 08, '23"},
		{name: "DATE_FORMAT", args: []in{date("2023-08-23"), str_("yyyyMMdd")}, want: "20230823"},
		{name: "DATE_FORMAT", args: []in{str_("2023-08-23 17:36:15"), str_("yyyy")}, want: "2023"},
		{name: "DATE_FORMAT", args: []in{str_("bad"), str_("yyyy")}, want: "NULL"},
		{name: "DATE_FORMAT", args: []in{ts("2023-08-23 17:36:15"), col(str_("HH"))}, want: "17"},
		{name: "DATE_FORMAT", args: []in{ltz("2023-08-23 17:36:15"), str_("HH:mm XXX")}, want: "17:36 Z"},
	})
}

func TestTimeFunctionsShanghai(t *testing.T) {
	sh := &Context{Loc: mustLoc(t, "Asia/Shanghai"), Now: fixedNow}
	runScalarCases(t, sh, []scalarCase{
		{name: "FROM_UNIXTIME", args: []in{bigint(44)}, want: "1970-01-01 08:00:44"},
		{name: "FROM_UNIXTIME", args: []in{bigint(1692812175)}, want: "2023-08-24 01:36:15"},
		{name: "FROM_UNIXTIME", args: []in{bigint(0), str_("HH:mm z Z XXX")}, want: "08:00 CST +0800 +08:00"},
		// "UNIX_TIMESTAMP('1970-01-01 00:00:00')" is -28800 in UTC+8
		{name: "UNIX_TIMESTAMP", args: []in{str_("1970-01-01 00:00:00")}, want: "-28800"},
		{name: "UNIX_TIMESTAMP", args: []in{str_("1970-01-01 00:00:00 +0000"), str_("yyyy-MM-dd HH:mm:ss Z")}, want: "0"},
		// TO_TIMESTAMP has no time zone
		{name: "TO_TIMESTAMP", args: []in{str_("2023-07-09 01:00:00")}, want: "2023-07-09 01:00:00"},
		{name: "DATE_FORMAT", args: []in{ltz("2023-08-23 17:36:15"), str_("yyyy-MM-dd HH:mm:ss")}, want: "2023-08-24 01:36:15"},
		{name: "DATE_FORMAT", args: []in{ts("2023-08-23 17:36:15"), str_("yyyy-MM-dd HH:mm:ss")}, want: "2023-08-23 17:36:15"},
		{name: "HOUR", args: []in{ltz("2023-08-23 17:36:15")}, want: "1"},
		{name: "HOUR", args: []in{ts("2023-08-23 17:36:15")}, want: "17"},
		{name: "CURRENT_DATE", want: "2023-08-24"},
		{name: "LOCALTIMESTAMP", want: "2023-08-24 01:36:15.123"},
		{name: "CURRENT_TIMESTAMP", want: "2023-08-23 17:36:15.123Z"},
		{name: "CURRENT_TIME", want: "01:36:15"},
		{name: "FLOOR", args: []in{ltz("2023-08-23 17:36:15"), unit("DAY")}, want: "2023-08-23 16:00:00Z"},
	})
	runScalarCases(t, utc, []scalarCase{
		{name: "CURRENT_DATE", want: "2023-08-23"},
		{name: "LOCALTIMESTAMP", want: "2023-08-23 17:36:15.123"},
		{name: "FLOOR", args: []in{ltz("2023-08-23 17:36:15"), unit("DAY")}, want: "2023-08-23 00:00:00Z"},
	})
}

func TestTimestampDiffAdd(t *testing.T) {
	runScalarCases(t, utc, []scalarCase{
		// "TIMESTAMPDIFF(DAY, TIMESTAMP '2003-01-02 10:00:00', TIMESTAMP
		// '2003-01-03 10:00:00') leads to 1"
		{name: "TIMESTAMPDIFF", args: []in{unit("DAY"), ts("2003-01-02 10:00:00"), ts("2003-01-03 10:00:00")}, want: "1"},
		{name: "TIMESTAMPDIFF", args: []in{unit("DAY"), ts("2003-01-03 09:59:59"), ts("2003-01-02 10:00:00")}, want: "0"},
		{name: "TIMESTAMPDIFF", args: []in{unit("SECOND"), ts("2003-01-02 10:00:00"), ts("2003-01-02 10:00:01.999")}, want: "1"},
		{name: "TIMESTAMPDIFF", args: []in{unit("MONTH"), ts("2023-01-31 10:00:00"), ts("2023-02-28 10:00:00")}, want: "1"},
		{name: "TIMESTAMPDIFF", args: []in{unit("MONTH"), ts("2023-01-31 10:00:00"), ts("2023-02-28 09:00:00")}, want: "0"},
		{name: "TIMESTAMPDIFF", args: []in{unit("MONTH"), ts("2023-03-15 00:00:00"), ts("2023-01-16 00:00:00")}, want: "-1"},
		{name: "TIMESTAMPDIFF", args: []in{unit("YEAR"), date("2000-02-29"), date("2004-02-28")}, want: "3"},
		{name: "TIMESTAMPDIFF", args: []in{unit("QUARTER"), date("2000-01-01"), date("2000-12-31")}, want: "3"},
		{name: "TIMESTAMPDIFF", args: []in{unit("WEEK"), date("2000-01-01"), date("2000-01-15")}, want: "2"},
		{name: "TIMESTAMPDIFF", args: []in{unit("HOUR"), ltz("2023-08-23 17:36:15"), ltz("2023-08-25 17:36:15")}, want: "48"},
		{name: "TIMESTAMPDIFF", args: []in{unit("HOUR"), ts("2023-08-23 17:36:15"), ltz("2023-08-25 17:36:15")}, wantErr: "TIMESTAMPDIFF expects"},
		{name: "TIMESTAMPDIFF", args: []in{unit("HOUR"), null(types.TimestampType(3)), ts("2023-08-25 17:36:15")}, want: "NULL"},
		{name: "TIMESTAMPDIFF", args: []in{unit("EPOCH"), ts("2023-08-23 17:36:15"), ts("2023-08-25 17:36:15")}, wantErr: "unit SECOND"},
		// "TIMESTAMPADD(WEEK, 1, DATE '2003-01-02') returns 2003-01-09"
		{name: "TIMESTAMPADD", args: []in{unit("WEEK"), int_(1), date("2003-01-02")}, want: "2003-01-09"},
		{name: "TIMESTAMPADD", args: []in{unit("MONTH"), int_(1), ts("2003-01-31 10:00:00")}, want: "2003-02-28 10:00:00"},
		{name: "TIMESTAMPADD", args: []in{unit("HOUR"), int_(-2), ts("2003-01-31 01:00:00")}, want: "2003-01-30 23:00:00"},
		{name: "TIMESTAMPADD", args: []in{unit("HOUR"), int_(2), date("2003-01-31")}, want: "2003-01-31 02:00:00"},
	})
}

func TestExtract(t *testing.T) {
	x := ts("2006-06-05 13:14:15.678")
	runScalarCases(t, utc, []scalarCase{
		// "EXTRACT(DAY FROM DATE '2006-06-05') returns 5"
		{name: "EXTRACT", args: []in{unit("DAY"), date("2006-06-05")}, want: "5"},
		{name: "EXTRACT", args: []in{unit("YEAR"), x}, want: "2006"},
		{name: "EXTRACT", args: []in{unit("QUARTER"), x}, want: "2"},
		{name: "EXTRACT", args: []in{unit("MONTH"), x}, want: "6"},
		{name: "EXTRACT", args: []in{unit("WEEK"), x}, want: "23"},
		{name: "EXTRACT", args: []in{unit("DOW"), x}, want: "2"},
		{name: "EXTRACT", args: []in{unit("DOY"), x}, want: "156"},
		{name: "EXTRACT", args: []in{unit("HOUR"), x}, want: "13"},
		{name: "EXTRACT", args: []in{unit("MINUTE"), x}, want: "14"},
		{name: "EXTRACT", args: []in{unit("SECOND"), x}, want: "15"},
		{name: "EXTRACT", args: []in{unit("MILLISECOND"), x}, want: "15678"},
		{name: "EXTRACT", args: []in{unit("EPOCH"), ts("1970-01-02 00:00:00")}, want: "86400"},
		{name: "EXTRACT", args: []in{unit("DAY"), interval(2*86_400_000 + 3_600_000)}, want: "2"},
		{name: "EXTRACT", args: []in{unit("HOUR"), interval(2*86_400_000 + 3_600_000)}, want: "1"},
		{name: "EXTRACT", args: []in{unit("YEAR"), months(27)}, want: "2"},
		{name: "EXTRACT", args: []in{unit("MONTH"), months(27)}, want: "3"},
		// "YEAR(date) ... E.g., YEAR(DATE '1994-09-27') returns 1994"
		{name: "YEAR", args: []in{date("1994-09-27")}, want: "1994"},
		// "QUARTER(DATE '1994-09-27') returns 3"
		{name: "QUARTER", args: []in{date("1994-09-27")}, want: "3"},
		// "MONTH(DATE '1994-09-27') returns 9"
		{name: "MONTH", args: []in{date("1994-09-27")}, want: "9"},
		// "WEEK(DATE '1994-09-27') returns 39"
		{name: "WEEK", args: []in{date("1994-09-27")}, want: "39"},
		// "DAYOFYEAR(DATE '1994-09-27') returns 270"
		{name: "DAYOFYEAR", args: []in{date("1994-09-27")}, want: "270"},
		// "DAYOFMONTH(DATE '1994-09-27') returns 27"
		{name: "DAYOFMONTH", args: []in{date("1994-09-27")}, want: "27"},
		// "DAYOFWEEK(DATE '1994-09-27') returns 3"
		{name: "DAYOFWEEK", args: []in{date("1994-09-27")}, want: "3"},
		// "HOUR(TIMESTAMP '1994-09-27 13:14:15') returns 13"
		{name: "HOUR", args: []in{ts("1994-09-27 13:14:15")}, want: "13"},
		{name: "MINUTE", args: []in{ts("1994-09-27 13:14:15")}, want: "14"},
		{name: "SECOND", args: []in{ts("1994-09-27 13:14:15")}, want: "15"},
		{name: "YEAR", args: []in{str_("1994")}, wantErr: "YEAR expects (DATE|TIMESTAMP|TIMESTAMP_LTZ); got (STRING)"},
	})
}

func TestFloorCeilTime(t *testing.T) {
	x := ts("2023-08-23 17:36:15.5")
	runScalarCases(t, utc, []scalarCase{
		{name: "FLOOR", args: []in{x, unit("HOUR")}, want: "2023-08-23 17:00:00"},
		{name: "CEIL", args: []in{x, unit("HOUR")}, want: "2023-08-23 18:00:00"},
		{name: "CEIL", args: []in{ts("2023-08-23 17:00:00"), unit("HOUR")}, want: "2023-08-23 17:00:00"},
		{name: "FLOOR", args: []in{x, unit("SECOND")}, want: "2023-08-23 17:36:15"},
		{name: "FLOOR", args: []in{x, unit("MONTH")}, want: "2023-08-01 00:00:00"},
		{name: "CEIL", args: []in{x, unit("MONTH")}, want: "2023-09-01 00:00:00"},
		{name: "FLOOR", args: []in{x, unit("QUARTER")}, want: "2023-07-01 00:00:00"},
		{name: "FLOOR", args: []in{x, unit("YEAR")}, want: "2023-01-01 00:00:00"},
		{name: "CEIL", args: []in{x, unit("YEAR")}, want: "2024-01-01 00:00:00"},
		// weeks start on Sunday: 2023-08-23 is a Wednesday
		{name: "FLOOR", args: []in{x, unit("WEEK")}, want: "2023-08-20 00:00:00"},
		{name: "FLOOR", args: []in{date("2023-08-23"), unit("MONTH")}, want: "2023-08-01"},
		{name: "CEIL", args: []in{date("2023-08-23"), unit("MONTH")}, want: "2023-09-01"},
		{name: "FLOOR", args: []in{ts("1969-12-31 23:59:59"), unit("DAY")}, want: "1969-12-31 00:00:00"},
	})
}

func TestDateFormatCompiler(t *testing.T) {
	for _, p := range []string{"yyyy-MM-dd'", "yyyy-MM-dd qq", "T"} {
		if _, err := compileDateFormat(p); err == nil {
			t.Errorf("compileDateFormat(%q) succeeded", p)
		}
	}
	f, err := compileDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSSSSS")
	if err != nil {
		t.Fatal(err)
	}
	tm := time.Date(2023, 8, 23, 17, 36, 15, 123456789, time.UTC)
	if got := f.format(tm); got != "2023-08-23T17:36:15.123456" {
		t.Errorf("format = %s", got)
	}
	back, ok := f.parse("2023-08-23T17:36:15.123456", time.UTC, dateTimeFormatMode)
	if !ok || !back.Equal(tm.Truncate(time.Microsecond)) {
		t.Errorf("parse = %v %v", back, ok)
	}
	if _, ok := f.parse("2023-08-23T17:36:15.123456xyz", time.UTC, dateTimeFormatMode); ok {
		t.Error("DateTimeFormatter mode accepted trailing text")
	}
	// week of year in Locale.US: 2023-01-01 is a Sunday, week 1
	w, _ := compileDateFormat("w")
	for d, want := range map[string]string{"2023-01-01": "1", "2023-01-07": "1", "2023-01-08": "2", "2023-12-31": "1"} {
		tm, _ := time.Parse("2006-01-02", d)
		if got := w.format(tm); got != want {
			t.Errorf("week of %s = %s, want %s", d, got, want)
		}
	}
}
