SELECT 1 AS `aÿþ`;
